"""No tool input, valid or broken, gets a 500, a traceback, an `internal` error or a charge on failure.

Every tool `tools/list` publishes is called through the whole in-process platform (router, billing in
moto DynamoDB, the real service handlers as template.yaml wires them, backend APIs answering from the
recordings on loopback, the email tools' DNS on loopback) with arguments Hypothesis draws:

* `test_schema_valid_arguments`: objects the published inputSchema accepts (hypothesis-jsonschema);
* `test_broken_arguments`: a valid object broken on purpose (a wrong type, a required key missing, an
  unknown key, a 100,000-character string, deep nesting, NUL / RTL marks / emoji), or arguments that
  are not an object at all.

Each call must answer well-formed JSON-RPC with no HTTP 5xx and no -32603; a tool result is either a
success whose structuredContent the published outputSchema accepts, charged exactly the tool's price,
or an error result whose code is not `internal`, with no traceback anywhere, that cost nothing.
Examples are few per tool and derandomized, so CI runs the same inputs every time.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import boto3
import jsonschema
import orjson
import pytest
from hypothesis import HealthCheck, given, settings

from email_support import LoopbackDns
from mcp_platform.errors import ERRORS
from mcp_platform.registry import load_registry
from mcp_router.settings import RouterSettings
from tests.support.router import ScriptedInvoker, message, platform, structured_text_matches
from tests.support.schema_strategies import RAW_MARK, invalid_arguments, valid_arguments

if TYPE_CHECKING:
    from collections.abc import Iterator

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
SPECS = {spec.name: spec for spec in load_registry()}


@pytest.fixture(scope="module")
def live(recorded_apis_server: RecordedApis) -> Iterator[Platform]:
    """The platform with every service in-process, one funded account, AWS in moto for the whole module."""
    from moto import mock_aws

    from localdev.store import create_buckets, create_tables, serialize_aws_requests
    from mcp_platform import staging_store
    from mcp_platform.aws import client
    from mcp_platform.backends import reset_clients
    from tests.conftest import _clear_service_settings

    serialize_aws_requests()
    with LoopbackDns() as dns, mock_aws(), pytest.MonkeyPatch.context() as env:
        for name, value in {
            **recorded_apis_server.environment(),
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
        staging_store.default_store.cache_clear()
        _clear_service_settings()
        reset_clients()
        try:
            yield platform(
                settings=RouterSettings(rate_limit_per_minute=1_000_000), credits=CREDITS, adapter="dynamodb"
            )
        finally:
            client.cache_clear()
            staging_store.default_store.cache_clear()
            _clear_service_settings()
            reset_clients()


def _encode(tool: str, arguments: Any) -> bytes:
    """The tools/call body; deep nesting beyond what encoders take is spliced in as raw text."""
    raw = None
    if isinstance(arguments, dict) and isinstance(arguments.get(RAW_MARK), tuple):
        arguments = dict(arguments)
        key, raw = arguments.pop(RAW_MARK)
        arguments[key] = RAW_MARK
    text = json.dumps(message("tools/call", {"name": tool, "arguments": arguments}), ensure_ascii=False)
    if raw is not None:
        text = text.replace(json.dumps(RAW_MARK), raw, 1)
    return text.encode()


def _balance(plat: Platform) -> int:
    """The account's balance as the ledger holds it (one GetItem; credits://balance also lists the ledger,
    a Query moto answers in time growing with the thousands of entries this module writes)."""
    return plat.ledger.balance(plat.account_id)


def _call(plat: Platform, tool: str, arguments: Any) -> None:
    before = _balance(plat)
    response = plat.post(_encode(tool, arguments))
    text = response.body.decode()
    assert response.status < 500, (response.status, text[:2000])
    assert "Traceback" not in text, text[:4000]
    reply = orjson.loads(response.body)
    # A body the router cannot parse (nesting past orjson's 1,024 levels) has no id to answer: JSON-RPC says null.
    parse_error = reply.get("error", {}).get("code") == -32700
    assert reply.get("jsonrpc") == "2.0" and reply.get("id") == (None if parse_error else 1), text[:2000]
    after = _balance(plat)
    if "error" in reply:
        # A protocol-level refusal (e.g. arguments that are not an object): never internal, never charged.
        assert reply["error"]["code"] != -32603, reply
        assert isinstance(reply["error"].get("message"), str) and reply["error"]["message"], reply
        assert after == before, (reply, before, after)
        return
    result = reply["result"]
    structured = result["structuredContent"]
    structured_text_matches(result)
    if result["isError"]:
        assert structured.get("code") in ERRORS and structured["code"] != "internal", structured
        assert isinstance(structured.get("error"), str) and structured["error"], structured
        assert structured.get("credits_charged", 0) == 0, structured
        assert after == before, (structured, before, after)
        return
    jsonschema.Draft202012Validator(TOOLS[tool]["outputSchema"]).validate(structured)
    spec = SPECS[tool]
    price = spec.price_for(spec.validate(arguments)) if callable(spec.price) else spec.price
    charged = before - after
    if spec.billed:
        assert structured.get("credits_charged") == charged, (structured, charged)
    if spec.service == "research" and structured.get("meta", {}).get("billable") is False:
        price = 0  # a sample or gated answer is delivered free (`waive_charge`), and says so
    assert charged == price, (tool, price, charged, structured)


def test_every_listed_tool_is_fuzzed() -> None:
    """The parametrization below is the listing itself: a new tool is fuzzed without touching this file."""
    assert len(TOOLS) > 100
    assert set(TOOLS) <= set(SPECS)


@pytest.mark.parametrize("tool", sorted(TOOLS))
def test_schema_valid_arguments(live: Platform, tool: str) -> None:
    @FUZZ
    @given(valid_arguments(TOOLS[tool]["inputSchema"]))
    def check(arguments: dict[str, Any]) -> None:
        _call(live, tool, arguments)

    check()


@pytest.mark.parametrize("tool", sorted(TOOLS))
def test_broken_arguments(live: Platform, tool: str) -> None:
    @FUZZ
    @given(invalid_arguments(TOOLS[tool]["inputSchema"]))
    def check(arguments: Any) -> None:
        _call(live, tool, arguments)

    check()


@pytest.mark.parametrize(
    "arguments",
    [
        pytest.param(None, id="null"),
        pytest.param([], id="list"),
        pytest.param("text", id="string"),
        pytest.param(7, id="number"),
    ],
)
def test_arguments_that_are_not_an_object(live: Platform, arguments: Any) -> None:
    _call(live, "hello_ping", arguments)
