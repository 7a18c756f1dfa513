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

from localdev.invoke_api import InvokeApi
from localdev.store import create_tables
from tests.support.local_store import fresh_account, local_admin

if TYPE_CHECKING:
    from collections.abc import Iterator

ROOT = Path(__file__).resolve().parents[2]
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
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT / "functions" / "router"), str(ROOT / "shared")]),
        "AWS_ENDPOINT_URL_DYNAMODB": stack["dynamodb"],
        "AWS_ENDPOINT_URL_LAMBDA": stack["lambda"],
        "SERVICE_FUNCTION_PREFIX": "svc-",
        "ACCOUNTS_TABLE": "AccountsTable",
        "API_KEYS_TABLE": "ApiKeysTable",
        "LEDGER_TABLE": "LedgerTable",
        "RATE_LIMIT_TABLE": "RateLimitTable",
        "CALLS_TABLE": "CallsTable",
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
    api = InvokeApi(prefix="elsewhere-")  # no function answers to svc-img here
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
