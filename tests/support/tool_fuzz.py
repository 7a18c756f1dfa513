"""Fuzz published tools through the whole in-process platform: the platform, the requests, the invariants.

`live_platform` is the platform with every service in-process (router, billing in moto DynamoDB, the
real service handlers as template.yaml wires them, durable tasks on worker threads as `make dev` runs
them, backend APIs answering from the recordings on loopback, the email tools' DNS on loopback) and one
funded account. `post` sends one request and checks what every answer must be: well-formed JSON-RPC,
no HTTP 5xx, no -32603, no traceback. `check_tool_result` holds a tool result to the published
outputSchema and the tool's price.
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import boto3
import jsonschema
import orjson
import pytest
from hypothesis import HealthCheck, settings

from email_support import LoopbackDns
from mcp_platform.catalogue.registry import load_registry
from mcp_platform.protocol.errors import ERRORS
from mcp_platform.protocol.jsonrpc import INTERNAL_ERROR, PARSE_ERROR
from mcp_router.meta_tools import META_TOOLS
from mcp_router.settings import RouterSettings
from tests.support.dynamo import router_env
from tests.support.router import ScriptedInvoker, message, platform, structured_text_matches
from tests.support.schema_strategies import RAW_MARK

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from tests.support.recorded_apis import RecordedApis
    from tests.support.router import Platform

CREDITS = 10_000_000
OFFLINE_ENGINES = (
    "EMAIL_FROM",
    "EMAIL_SUPPRESSION_CHECK",
    "SHOT_BROWSER_PATH",
    "TTS_ENGINE",
    "WHISPER_ENGINE",
    "VISION_OCR_ENGINE",
    "VISION_LABELS_ENGINE",
    "PROMPTGUARD_CANARY_SECRET",
)

FUZZ = settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)


def _listed_tools() -> dict[str, dict[str, Any]]:
    """Every tool `tools/list` publishes (all pages), by name; no service runs for a listing."""
    plat = platform(invoker=ScriptedInvoker())
    tools: dict[str, dict[str, Any]] = {}
    cursor = None
    while True:
        page = plat.rpc("tools/list", {"cursor": cursor} if cursor else None)
        tools.update({tool["name"]: tool for tool in page["tools"]})
        cursor = page.get("nextCursor")
        if not cursor:
            return tools


def _offline_settings() -> dict[str, str]:
    """What `make dev` sets on top of the template (`LocalPlatform.configure`)."""
    from localdev.server import LocalPlatform

    env: dict[str, str] = {}
    LocalPlatform(port=0, aws_port=0, dev_key=None, dev_credits=0).configure(env)
    return env


TOOLS = _listed_tools()
OFFLINE = _offline_settings()
SPECS = {spec.name: spec for spec in [*load_registry(), *META_TOOLS.values()]}
"""The services' tools and the router's own (tools_search is listed on every connection)."""


@contextmanager
def live_platform(recorded_apis: RecordedApis) -> Iterator[Platform]:
    """The platform with every service in-process and one account of `CREDITS`, AWS in moto while it lasts."""
    from moto import mock_aws

    from localdev.store import create_buckets, create_tables, moto_as_dynamodb
    from mcp_platform.backends import reset_clients
    from mcp_platform.storage import staging_store
    from mcp_platform.storage.aws import client
    from tests.conftest import _clear_service_settings

    moto_as_dynamodb()
    with LoopbackDns() as dns, mock_aws(), pytest.MonkeyPatch.context() as env:
        for name, value in {
            **recorded_apis.environment(),
            "BACKEND_CACHE_TABLE": "BackendCacheTable",
            "DNS_NAMESERVERS": dns.address,
            "DNS_TIMEOUT_S": "2",
            # The local default's offline engines and sender (localdev/server.py), so the tools run for real.
            **{name: OFFLINE[name] for name in OFFLINE_ENGINES},
        }.items():
            env.setenv(name, value)
        create_tables()
        create_buckets()
        boto3.client("sesv2").create_email_identity(EmailIdentity=OFFLINE["EMAIL_FROM"])
        client.cache_clear()
        staging_store.forget_stores()
        _clear_service_settings()
        reset_clients()
        try:
            yield _platform()
        finally:
            client.cache_clear()
            staging_store.forget_stores()
            _clear_service_settings()
            reset_clients()


def _platform() -> Platform:
    """The platform as `make dev` wires it (localdev/server.py): task-augmented calls run on the in-process
    invoker's worker threads, in the template's task table, and a worker that raises fails its task."""
    from localdev.invoker import InProcessInvoker, failure_sink
    from mcp_platform.billing.lifecycle import CallBilling
    from mcp_platform.durable_tasks.dynamodb import DynamoTaskStore, S3Blobs
    from mcp_platform.storage.aws import client

    env = router_env()
    tasks = DynamoTaskStore(client("dynamodb"), env["TASKS_TABLE"], S3Blobs(client("s3"), env["STAGING_BUCKET"]))
    invoker = InProcessInvoker()
    unlimited = RouterSettings(rate_limit_per_minute=1_000_000)
    plat = platform(invoker=invoker, settings=unlimited, credits=CREDITS, adapter="dynamodb", task_store=tasks)
    invoker.on_failure = failure_sink(tasks, CallBilling(plat.ledger))
    return plat


def encode(tool: str, arguments: Any, **params: Any) -> bytes:
    """The tools/call body, `params` (e.g. `task`) beside name and arguments; deep nesting beyond what
    encoders take is spliced in as raw text."""
    raw = None
    if isinstance(arguments, dict) and isinstance(arguments.get(RAW_MARK), tuple):
        arguments = dict(arguments)
        key, raw = arguments.pop(RAW_MARK)
        arguments[key] = RAW_MARK
    text = json.dumps(message("tools/call", {"name": tool, "arguments": arguments, **params}), ensure_ascii=False)
    if raw is not None:
        text = text.replace(json.dumps(RAW_MARK), raw, 1)
    return text.encode()


def post(plat: Platform, body: Any) -> dict[str, Any]:
    """Send one request (JSON-RPC id 1; bytes as they are, anything else as JSON); its reply, once it is
    well-formed JSON-RPC with no HTTP 5xx, no traceback and no -32603 (an error is a refusal with a message)."""
    response = plat.post(body)
    text = response.body.decode()
    assert response.status < 500, (response.status, text[:2000])
    assert "Traceback" not in text, text[:4000]
    reply: dict[str, Any] = orjson.loads(response.body)
    # A body the router cannot parse (nesting past orjson's 1,024 levels) has no id to answer: JSON-RPC says null.
    parse_error = reply.get("error", {}).get("code") == PARSE_ERROR
    assert reply.get("jsonrpc") == "2.0" and reply.get("id") == (None if parse_error else 1), text[:2000]
    if "error" in reply:
        assert reply["error"]["code"] != INTERNAL_ERROR, reply
        assert isinstance(reply["error"].get("message"), str) and reply["error"]["message"], reply
    return reply


def balance(plat: Platform) -> int:
    """The account's balance as the ledger holds it (one GetItem; credits://balance also lists the ledger,
    a Query moto answers in time growing with the thousands of entries a fuzz module writes)."""
    return plat.ledger.balance(plat.account_id)


def list_price(tool: str, arguments: dict[str, Any]) -> int:
    """What a call of `tool` with these (valid) arguments is priced at, and reserves before it runs, by the
    fuzzed router: its settings configure no search provider or LLM (`ToolSpec.free_without_providers`)."""
    spec = SPECS[tool]
    return spec.price_for(spec.validate(arguments), providers_configured=False)


FREE_ANSWERS: dict[str, Callable[[dict[str, Any]], bool]] = {
    "research": lambda out: out.get("meta", {}).get("billable") is False,  # a sample or gated answer
    "whisper": lambda out: out.get("minutes_billed") == 0,  # a transcript of noise (docs/billing.md)
}
"""Successes a service delivers free by rule, told by what the answer itself says."""


def check_tool_result(tool: str, arguments: Any, result: dict[str, Any], charged: int) -> None:
    """`result` (a `CallToolResult` that cost `charged`) is a success the outputSchema accepts, charged
    exactly its price, or an error with a registered code other than `internal` that cost nothing."""
    structured = result["structuredContent"]
    structured_text_matches(result)
    if result["isError"]:
        assert structured.get("code") in ERRORS and structured["code"] != "internal", structured
        assert isinstance(structured.get("error"), str) and structured["error"], structured
        assert structured.get("credits_charged", 0) == 0, structured
        assert charged == 0, (structured, charged)
        return
    jsonschema.Draft202012Validator(TOOLS[tool]["outputSchema"]).validate(structured)
    spec = SPECS[tool]
    price = list_price(tool, arguments)
    if spec.billed and price:  # priced 0 (research without a provider) reserves nothing, as a free tool
        assert structured.get("credits_charged") == charged, (structured, charged)
    if (free := FREE_ANSWERS.get(spec.service)) and free(structured):
        price = 0  # delivered free (`waive_charge`), and the answer says so
    assert charged == price, (tool, price, charged, structured)
