"""LambdaInvoker: every way an Invoke can go wrong comes back as an error reply (so it is refunded)."""

from __future__ import annotations

import io
from typing import Any

import orjson
import pytest
from botocore.exceptions import ClientError, EndpointConnectionError, ReadTimeoutError

from mcp_platform.protocol.payloads import ServiceReply, ServiceRequest
from mcp_router.invoker import LambdaInvoker
from mcp_router.settings import RouterSettings
from tests.support.dynamo import router_env

REQUEST = ServiceRequest(tool="fake_a", arguments={"text": "hi"}, account_id="acct", request_id="r1")


class FakeLambda:
    def __init__(self, outcome: Any) -> None:
        self.outcome = outcome
        self.calls: list[dict[str, Any]] = []

    def invoke(self, **kwargs: Any) -> dict[str, Any]:
        self.calls.append(kwargs)
        if isinstance(self.outcome, Exception):
            raise self.outcome
        return self.outcome


def _response(payload: Any, function_error: str | None = None) -> dict[str, Any]:
    raw = payload if isinstance(payload, bytes) else orjson.dumps(payload)
    response: dict[str, Any] = {"StatusCode": 200, "Payload": io.BytesIO(raw)}
    if function_error:
        response["FunctionError"] = function_error
    return response


def test_a_good_reply_is_parsed_and_the_payload_is_the_documented_one() -> None:
    client = FakeLambda(_response({"structured_content": {"echo": "hi"}}))
    reply = LambdaInvoker(client, "stack-svc-").invoke("fake", REQUEST)
    assert reply == ServiceReply(structured_content={"echo": "hi"})
    [call] = client.calls
    assert call["FunctionName"] == "stack-svc-fake"
    assert call["InvocationType"] == "RequestResponse"
    assert orjson.loads(call["Payload"]) == {
        "tool": "fake_a",
        "arguments": {"text": "hi"},
        "account_id": "acct",
        "request_id": "r1",
        "balance": None,
        "task_id": None,
        "deadline_epoch": None,
    }


def test_function_names_from_settings_with_overrides() -> None:
    env = router_env(SERVICE_FUNCTION_PREFIX="st-svc-", SERVICE_FUNCTION_HELLO="custom-hello")
    invoker = LambdaInvoker.of(FakeLambda(None), RouterSettings.from_env(env))
    assert invoker.function_name("hello") == "custom-hello"
    assert invoker.function_name("fetch") == "st-svc-fetch"


def _client_error(code: str) -> ClientError:
    return ClientError({"Error": {"Code": code, "Message": "x"}}, "Invoke")


@pytest.mark.parametrize(
    ("outcome", "code"),
    [
        (_response({"errorMessage": "boom"}, "Unhandled"), "internal"),
        (_response(b"not json"), "internal"),
        (_response({"unexpected": 1}), "internal"),
        (ReadTimeoutError(endpoint_url="http://x"), "upstream_unavailable"),
        (_client_error("TooManyRequestsException"), "rate_limited"),
        (_client_error("ResourceNotFoundException"), "upstream_unavailable"),
        (EndpointConnectionError(endpoint_url="http://x"), "upstream_unavailable"),
    ],
    ids=["function-error", "not-json", "malformed", "timeout", "throttled", "no-function", "no-endpoint"],
)
def test_failures_become_error_replies(outcome: Any, code: str) -> None:
    reply = LambdaInvoker(FakeLambda(outcome), "p-").invoke("fake", REQUEST)
    assert reply.is_error
    assert reply.structured_content["code"] == code
    assert reply.structured_content["error"].startswith("fake: ")
    assert "not charged" in reply.structured_content["error"]


def test_in_process_invoker_runs_the_real_handler_and_reports_unknown_services() -> None:
    from localdev.invoker import InProcessInvoker

    invoker = InProcessInvoker()
    assert "hello" in invoker.services
    ok = invoker.invoke("hello", ServiceRequest(tool="hello_ping", arguments={}, account_id="a", request_id="r"))
    assert ok.structured_content["message"] == "hello, world"
    missing = invoker.invoke("nope", REQUEST)
    assert missing.is_error and missing.structured_content["code"] == "upstream_unavailable"
