"""The router's Lambda entry as deployed, without Docker: API Gateway events → Mangum → router →
botocore `LambdaInvoker` → a loopback Invoke API running the services' real handlers, with DynamoDB
on a loopback moto server. (`make test-sam-local` drives the same path through `sam local`.)"""

from __future__ import annotations

import base64
import io
import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import boto3
import pytest
from moto.server import ThreadedMotoServer
from PIL import Image

from localdev import environment, template
from localdev.invoke_api import InvokeApi
from localdev.store import create_tables
from tests.support.local_store import fresh_account, local_admin

if TYPE_CHECKING:
    from collections.abc import Iterator

ROOT = Path(__file__).resolve().parents[2]
ROUTER = next(f for f in template.functions() if f.service == "router")
CHILD = """
import json, sys
import mcp_router.lambda_entry as entry
class Context:
    function_name, memory_limit_in_mb, aws_request_id = "router", 1024, "r1"
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:router"
print(json.dumps([entry.handler(event, Context()) for event in json.load(sys.stdin)]))
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def stack() -> Iterator[dict[str, str]]:
    store = ThreadedMotoServer(ip_address="127.0.0.1", port=_free_port(), verbose=False)
    store.start()
    invoke_api = InvokeApi(prefix="svc-")
    invoke_api.start()
    host, port = store.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    create_tables(boto3.client("dynamodb", endpoint_url=endpoint, region_name="us-east-1"))
    try:
        yield {"dynamodb": endpoint, "lambda": invoke_api.endpoint}
    finally:
        invoke_api.stop()
        store.stop()


def _call(key: str, rpc_id: int, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    event = json.loads((ROOT / "events" / "router.json").read_text())
    event["headers"].update(authorization=f"Bearer {key}", host="localhost")
    params = {"name": tool, "arguments": arguments}
    event["body"] = json.dumps({"jsonrpc": "2.0", "id": rpc_id, "method": "tools/call", "params": params})
    return event


def _run_router(stack: dict[str, str], events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # The router's Lambda gets its own template block and Globals (tables named by logical id, as the store
    # has them), not the other functions' variables tests/conftest.py put into this process.
    env = {
        **{k: v for k, v in os.environ.items() if k not in environment.template_names()},
        **environment.own(ROUTER, {}),
        "PYTHONPATH": os.pathsep.join([str(ROOT / "functions" / "platform" / "router"), str(ROOT / "shared")]),
        "AWS_ENDPOINT_URL_DYNAMODB": stack["dynamodb"],
        "AWS_ENDPOINT_URL_LAMBDA": stack["lambda"],
        "SERVICE_FUNCTION_PREFIX": "svc-",
    }
    env.pop("AWS_ENDPOINT_URL", None)
    run = subprocess.run(
        [sys.executable, "-c", CHILD], input=json.dumps(events), env=env, capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


def _png() -> str:
    out = io.BytesIO()
    Image.new("RGB", (3, 2), "red").save(out, "PNG")
    return base64.b64encode(out.getvalue()).decode()


def test_free_billed_and_failed_calls_through_the_lambda_entry(stack: dict[str, str]) -> None:
    account_id, key = fresh_account(stack["dynamodb"], frozenset({"hello", "img"}), 10)
    events = [
        _call(key, 1, "hello_ping", {"name": "lambda"}),
        _call(key, 2, "img_info", {"image": "not base64 at all!"}),
        _call(key, 3, "img_info", {"image": _png()}),
    ]
    replies = [(r["statusCode"], json.loads(r["body"])) for r in _run_router(stack, events)]
    assert [status for status, _ in replies] == [200, 200, 200]
    hello, bad, info = (body["result"] for _, body in replies)
    assert hello["structuredContent"]["message"] == "hello, lambda"
    assert bad["isError"] is True and bad["structuredContent"]["code"] == "invalid_arguments"
    assert info["isError"] is False, info
    assert (info["structuredContent"]["width"], info["structuredContent"]["height"]) == (3, 2)
    assert info["structuredContent"]["credits_charged"] == 1
    shown = local_admin(stack["dynamodb"]).show(account_id)
    assert shown["balance"] == 9
    assert [(e["kind"], e["amount"], e.get("tool")) for e in shown["ledger"]] == [
        ("charge", -1, "img_info"),
        ("grant", 10, None),
    ]


def test_a_service_that_is_not_deployed_is_an_error_result_and_no_charge(stack: dict[str, str]) -> None:
    account_id, key = fresh_account(stack["dynamodb"], frozenset({"img"}), 5)
    api = InvokeApi(prefix="svc-", functions={})  # no function deployed: nothing answers to svc-img
    api.start()
    try:
        stack = {**stack, "lambda": api.endpoint}
        (reply,) = _run_router(stack, [_call(key, 1, "img_info", {"image": _png()})])
    finally:
        api.stop()
    result = json.loads(reply["body"])["result"]
    assert result["isError"] is True
    assert "could not be reached" in result["structuredContent"]["error"]
    assert local_admin(stack["dynamodb"]).show(account_id)["balance"] == 5


PROBE = """
import os
SEEN = {name: os.environ.get(name) for name in ("STAGE", "STAGING_BUCKET", "PROBE_SETTING")}  # at cold start
def handler(event, context):
    return SEEN
"""


def test_each_function_starts_with_only_its_own_template_block(tmp_path: Path) -> None:
    """A variable another function's block sets (STAGING_BUCKET, in this process for in-process tests) is
    not there when a function's block lacks it; Globals and the function's own block are."""
    (tmp_path / "probe_handler.py").write_text(PROBE)
    probe = template.FunctionWiring(
        logical_id="ProbeFunction",
        service="probe",
        code_dir=tmp_path,
        handler="probe_handler.handler",
        environment={"PROBE_SETTING": "from-the-block"},
    )
    assert os.environ.get("STAGING_BUCKET")  # the process has it: the Invoke API must not pass it on
    api = InvokeApi(prefix="svc-", functions={"probe": probe})
    api.start()
    try:
        client = boto3.client("lambda", endpoint_url=api.endpoint, region_name="us-east-1")
        reply = client.invoke(FunctionName="svc-probe", Payload=b"{}")
    finally:
        api.stop()
    assert "FunctionError" not in reply
    assert json.loads(reply["Payload"].read()) == {
        "STAGE": "dev",
        "STAGING_BUCKET": None,
        "PROBE_SETTING": "from-the-block",
    }
