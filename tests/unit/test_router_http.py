"""PROTOCOL.md's HTTP table for POST /mcp, rule by rule, through `Gateway.handle`."""

from __future__ import annotations

import base64

import pytest

from mcp_platform.auth.store import Account
from mcp_platform.protocol.jsonrpc import INVALID_REQUEST, PARSE_ERROR
from mcp_router.rate_units import USAGE_READ_UNITS
from mcp_router.settings import RouterSettings
from mcp_router.transport import TRANSPORT_ERROR
from tests.support.clock import Clock
from tests.support.router import Platform, assert_rpc_error, body, message, notification, platform

PING = message("ping")


@pytest.fixture(scope="module")
def plat() -> Platform:
    return platform()


@pytest.mark.parametrize("verb", ["GET", "DELETE", "PUT", "PATCH"])
def test_other_verbs_on_mcp_are_405_with_allow_post(plat: Platform, verb: str) -> None:
    response = plat.request(b"", method=verb)
    assert_rpc_error(response, 405, TRANSPORT_ERROR)
    assert response.headers["allow"] == "POST"


@pytest.mark.parametrize("accept", ["text/event-stream", "text/html", "application/xml, text/plain"])
def test_accept_without_json_or_wildcard_is_406(plat: Platform, accept: str) -> None:
    assert_rpc_error(plat.post(PING, {"accept": accept}), 406, TRANSPORT_ERROR)


@pytest.mark.parametrize("accept", ["application/json", "*/*", "application/*", "text/event-stream;q=1, */*;q=0.1"])
def test_accept_admitting_json_or_a_wildcard_passes(plat: Platform, accept: str) -> None:
    assert plat.post(PING, {"accept": accept}).status == 200


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", ""])
def test_content_type_other_than_json_is_415(plat: Platform, content_type: str) -> None:
    assert_rpc_error(plat.post(PING, {"content-type": content_type}), 415, TRANSPORT_ERROR)


def test_content_type_json_with_charset_is_accepted(plat: Platform) -> None:
    assert plat.post(PING, {"content-type": "Application/JSON; charset=utf-8"}).status == 200


@pytest.mark.parametrize(
    "raw",
    [b"{", b"not json", b"", b"\xff\xfe", pytest.param(b"[" * 1_025 + b"]" * 1_025, id="deeper-than-orjson-reads")],
)
def test_body_not_json_is_400_parse_error_with_null_id(plat: Platform, raw: bytes) -> None:
    assert_rpc_error(plat.post(raw), 400, PARSE_ERROR, rpc_id=None)


@pytest.mark.parametrize("depth", [254, 600])
@pytest.mark.parametrize("key", [None, "deep-call"])
def test_arguments_nested_too_deeply_to_send_on_are_invalid_arguments(
    depth: int, key: str | None, plat: Platform
) -> None:
    """validate_json's schema is any object: the router reads it (to 1,024 levels) but cannot send it past ~255."""
    schema = b'{"items":' * depth + b"{}" + b"}" * depth
    params = b'{"name":"validate_json","arguments":{"document":[],"schema":' + schema + b"}}"
    raw = b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":' + params + b"}"
    before = plat.ledger.balance(plat.account_id)
    response = plat.post(raw, {"idempotency-key": key} if key else None)
    assert response.status == 200, response.body
    result = body(response)["result"]["structuredContent"]
    assert result == {
        "error": "invalid arguments: nested too deeply (at most about 250 levels)",
        "is_error": True,
        "code": "invalid_arguments",
    }
    assert plat.ledger.balance(plat.account_id) == before


@pytest.mark.parametrize(
    ("msg", "rpc_id"),
    [
        ({"jsonrpc": "1.0", "id": 7, "method": "ping"}, 7),
        ({"id": 7, "method": "ping"}, 7),
        ({"jsonrpc": "2.0", "id": 7}, 7),
        ({"jsonrpc": "2.0", "id": None, "method": "ping"}, None),
        ({"jsonrpc": "2.0", "id": 1.5, "method": "ping"}, None),
        ({"jsonrpc": "2.0", "id": True, "method": "ping"}, None),
        ({"jsonrpc": "2.0", "id": 7, "method": 3}, 7),
        ({"jsonrpc": "2.0", "id": 7, "method": "ping", "params": [1]}, 7),
        ({"jsonrpc": "2.0", "id": 7, "method": "ping", "params": "x"}, 7),
        ("ping", None),
        (42, None),
    ],
    ids=[
        "wrong-jsonrpc",
        "no-jsonrpc",
        "no-method",
        "null-id",
        "float-id",
        "bool-id",
        "method-not-string",
        "params-array",
        "params-string",
        "string-body",
        "number-body",
    ],
)
def test_not_a_json_rpc_message_is_400_invalid_request(plat: Platform, msg: object, rpc_id: object) -> None:
    assert_rpc_error(plat.post(msg), 400, INVALID_REQUEST, rpc_id=rpc_id)


def test_a_notification_is_202_with_an_empty_body(plat: Platform) -> None:
    response = plat.post(notification("notifications/initialized"))
    assert response.status == 202
    assert response.body == b""


def test_a_client_response_is_202_with_an_empty_body(plat: Platform) -> None:
    response = plat.post({"jsonrpc": "2.0", "id": 3, "result": {}})
    assert response.status == 202
    assert response.body == b""


def test_a_request_is_200_json_with_the_same_id(plat: Platform) -> None:
    for rpc_id in (0, 42, "abc", ""):
        response = plat.post(message("ping", rpc_id=rpc_id))
        assert response.status == 200
        assert body(response) == {"jsonrpc": "2.0", "id": rpc_id, "result": {}}


def test_batch_answers_requests_in_order_and_notifications_not_at_all(plat: Platform) -> None:
    batch = [
        message("ping", rpc_id="a"),
        notification("notifications/initialized"),
        message("tools/call", {"name": "hello_ping", "arguments": {"name": "Ada"}}, rpc_id=2),
        {"jsonrpc": "2.0", "id": 9, "result": {}},
        message("nope/nope", rpc_id=3),
    ]
    response = plat.post(batch)
    assert response.status == 200
    replies = body(response)
    assert [r["id"] for r in replies] == ["a", 2, 3]
    assert replies[0]["result"] == {}
    assert replies[1]["result"]["structuredContent"]["message"] == "hello, Ada"
    assert replies[2]["error"]["code"] == -32601


def test_batch_with_an_invalid_member_answers_it_with_an_error(plat: Platform) -> None:
    response = plat.post([message("ping", rpc_id=1), {"jsonrpc": "1.0", "id": 2, "method": "ping"}, 5])
    assert response.status == 200
    replies = body(response)
    assert replies[0] == {"jsonrpc": "2.0", "id": 1, "result": {}}
    assert replies[1]["id"] == 2 and replies[1]["error"]["code"] == INVALID_REQUEST
    assert replies[2]["id"] is None and replies[2]["error"]["code"] == INVALID_REQUEST


def test_batch_of_only_notifications_and_responses_is_202(plat: Platform) -> None:
    response = plat.post([notification("notifications/initialized"), {"jsonrpc": "2.0", "id": 1, "result": {}}])
    assert response.status == 202
    assert response.body == b""


def test_empty_batch_is_400_invalid_request(plat: Platform) -> None:
    assert_rpc_error(plat.post([]), 400, INVALID_REQUEST)


def test_body_over_the_cap_is_413() -> None:
    small = platform(settings=RouterSettings(max_body_bytes=200))
    padded = message("ping", {"pad": "x" * 200})
    assert_rpc_error(small.post(padded), 413, TRANSPORT_ERROR)
    assert small.post(message("ping")).status == 200


def test_origin_not_allowed_is_403(plat: Platform) -> None:
    assert_rpc_error(plat.post(PING, {"origin": "https://evil.example"}), 403, TRANSPORT_ERROR)


def test_allowed_origin_passes_and_no_origin_passes() -> None:
    plat = platform(settings=RouterSettings(allowed_origins=("https://app.example",)))
    assert plat.post(PING, {"origin": "https://app.example"}).status == 200
    assert plat.post(PING).status == 200
    assert_rpc_error(plat.post(PING, {"origin": "https://app.example.evil"}), 403, TRANSPORT_ERROR)


def test_with_allowed_hosts_a_loopback_origin_and_host_pass_and_others_are_403() -> None:
    plat = platform(settings=RouterSettings(allowed_hosts=("localhost", "127.0.0.1")))
    assert plat.post(PING, {"host": "127.0.0.1:3000", "origin": "http://localhost:3000"}).status == 200
    assert plat.post(PING, {"host": "localhost"}).status == 200
    assert_rpc_error(plat.post(PING, {"host": "evil.example"}), 403, TRANSPORT_ERROR)
    assert_rpc_error(plat.post(PING, {"host": "localhost", "origin": "http://evil.example"}), 403, TRANSPORT_ERROR)


def _assert_401(response: object) -> None:
    assert_rpc_error(response, 401, TRANSPORT_ERROR)  # type: ignore[arg-type]
    assert response.headers["www-authenticate"].startswith("Bearer ")  # type: ignore[attr-defined]
    assert "x-ratelimit-limit" not in response.headers  # type: ignore[attr-defined]


def test_no_key_is_401_with_www_authenticate(plat: Platform) -> None:
    _assert_401(plat.post(PING, key=None))


@pytest.mark.parametrize(
    "key",
    ["mcp_" + "A" * 43, "mcp_short", "sk-" + "A" * 44, "mcp_" + "A" * 42 + "!", ""],
    ids=["unknown", "too-short", "wrong-prefix", "bad-char", "empty"],
)
def test_unknown_or_malformed_key_is_401(plat: Platform, key: str) -> None:
    _assert_401(plat.post(PING, key=key))


def test_revoked_key_is_401() -> None:
    plat = platform(settings=RouterSettings(key_cache_seconds=0))
    assert plat.post(PING).status == 200
    plat.admin.revoke_key(plat.key)
    _assert_401(plat.post(PING))


def test_key_is_accepted_as_bearer_x_api_key_or_basic_password(plat: Platform) -> None:
    assert plat.post(PING, {"authorization": f"bearer {plat.key}"}, key=None).status == 200
    assert plat.post(PING, {"x-api-key": plat.key}, key=None).status == 200
    basic = base64.b64encode(f"any:{plat.key}".encode()).decode()
    assert plat.post(PING, {"authorization": f"Basic {basic}"}, key=None).status == 200
    _assert_401(plat.post(PING, {"authorization": f"Basic {plat.key}"}, key=None))


def test_every_authenticated_response_carries_rate_limit_headers() -> None:
    plat = platform(settings=RouterSettings(rate_limit_per_minute=50), clock=Clock(6000.0))
    responses = [
        plat.post(PING),
        plat.post(notification("notifications/initialized")),
        plat.post(message("nope")),
        plat.post([PING]),
        plat.post({"jsonrpc": "1.0", "id": 1, "method": "ping"}),
        plat.post(b"{not json"),
    ]
    remaining = []
    for response in responses:
        assert response.headers["x-ratelimit-limit"] == "50", response.status
        assert int(response.headers["x-ratelimit-reset"]) % 60 == 0
        remaining.append(int(response.headers["x-ratelimit-remaining"]))
    assert remaining == [49, 48, 47, 46, 45, 44]


def test_over_the_rate_is_429_with_retry_after() -> None:
    clock = Clock(6015.0)  # 45 s before the window ends
    plat = platform(settings=RouterSettings(rate_limit_per_minute=2), clock=clock)
    assert plat.post(PING).status == 200
    assert plat.post(PING).status == 200
    response = plat.post(message("ping", rpc_id="over-7"))
    assert_rpc_error(response, 429, TRANSPORT_ERROR, rpc_id="over-7")
    assert response.headers["x-ratelimit-reset"] == "6060"
    assert response.headers["retry-after"] == "45"
    assert response.headers["x-ratelimit-limit"] == "2"
    assert response.headers["x-ratelimit-remaining"] == "0"


@pytest.mark.parametrize(
    "raw", [b"{not json", b'[{"jsonrpc":"2.0","id":1,"method":"ping"}]', b'{"jsonrpc":"2.0","id":[1],"method":"ping"}']
)
def test_a_rate_limited_body_without_one_readable_id_answers_id_null(raw: bytes) -> None:
    plat = platform(settings=RouterSettings(rate_limit_per_minute=1))
    assert plat.post(PING).status == 200
    assert_rpc_error(plat.post(raw), 429, TRANSPORT_ERROR, rpc_id=None)


def test_an_accounts_own_rate_limit_overrides_the_default() -> None:
    plat = platform(settings=RouterSettings(rate_limit_per_minute=100), clock=Clock(6000.0))
    plat.store.create_account(Account("acct_slow", "slow", frozenset({"hello"}), rate_limit_per_minute=1))
    slow_key = plat.admin.issue_key("acct_slow")
    assert plat.post(PING).headers["x-ratelimit-limit"] == "100"
    assert plat.post(PING, key=slow_key).headers["x-ratelimit-limit"] == "1"
    assert_rpc_error(plat.post(PING, key=slow_key), 429, TRANSPORT_ERROR, rpc_id=1)
    assert plat.post(PING).status == 200


def test_no_session_id_is_ever_issued_and_a_sent_one_is_ignored(plat: Platform) -> None:
    init = message(
        "initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
    )
    for response in (
        plat.post(init),
        plat.post(PING, {"mcp-session-id": "made-up"}),
        plat.post(notification("notifications/initialized")),
        plat.post(b"", method="GET"),
    ):
        assert "mcp-session-id" not in {name.lower() for name in response.headers}
    assert plat.post(PING, {"mcp-session-id": "made-up"}).status == 200


def test_trailing_slash_is_the_same_endpoint(plat: Platform) -> None:
    assert body(plat.request(PING, path="/mcp/")) == {"jsonrpc": "2.0", "id": 1, "result": {}}


def test_unknown_path_is_404(plat: Platform) -> None:
    assert plat.request(b"", method="GET", path="/nope").status == 404


def _calls(n: int, start: int = 1) -> list[dict[str, object]]:
    return [message("tools/call", {"name": "hello_ping"}, rpc_id=start + i) for i in range(n)]


def test_a_batch_takes_one_per_member_from_the_window() -> None:
    plat = platform(settings=RouterSettings(rate_limit_per_minute=10))
    response = plat.post(_calls(4))
    assert response.status == 200 and len(body(response)) == 4
    assert response.headers["x-ratelimit-remaining"] == "6"
    assert plat.post([PING, PING]).headers["x-ratelimit-remaining"] == "4"  # every member counts, tool call or not


def test_a_usage_read_costs_what_its_queries_cost() -> None:
    plat = platform(settings=RouterSettings(rate_limit_per_minute=100))
    read = message("resources/read", {"uri": "credits://usage"})
    assert plat.post(read).headers["x-ratelimit-remaining"] == str(100 - USAGE_READ_UNITS)
    batch = [message("resources/read", {"uri": "credits://usage?since=2026-01-01"}, rpc_id=i) for i in range(20)]
    refused = plat.post(batch)  # ~1,000 Queries: no longer one unit
    error = assert_rpc_error(refused, 429, TRANSPORT_ERROR)
    assert f"takes {20 * USAGE_READ_UNITS}" in error["message"] and "split it" in error["message"]


def test_a_platform_made_without_a_clock_keeps_its_window_across_a_minute_boundary(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # CI once failed here: the first request ran at hh:mm:59.999, the next at hh:mm+1:00.000.
    ticks = iter(6059.99 + k * 0.01 for k in range(100_000))
    monkeypatch.setattr("time.time", lambda: next(ticks))
    plat = platform(settings=RouterSettings(rate_limit_per_minute=10))
    assert plat.post(_calls(4)).headers["x-ratelimit-remaining"] == "6"
    assert plat.post(PING).headers["x-ratelimit-remaining"] == "5"


def test_a_batch_bigger_than_what_is_left_is_refused_whole_and_takes_nothing() -> None:
    plat = platform(settings=RouterSettings(rate_limit_per_minute=10))
    assert plat.post(_calls(7)).status == 200
    refused = plat.post(_calls(4, start=8))
    error = assert_rpc_error(refused, 429, TRANSPORT_ERROR)
    assert "takes 4" in error["message"] and "3 are left" in error["message"]
    assert refused.headers["x-ratelimit-remaining"] == "3"
    assert plat.post(_calls(3)).status == 200  # the refused batch took nothing


def test_a_batch_over_the_whole_limit_says_to_split_it() -> None:
    plat = platform(settings=RouterSettings(rate_limit_per_minute=5))
    error = assert_rpc_error(plat.post(_calls(6)), 429, TRANSPORT_ERROR)
    assert "split it" in error["message"]
    assert plat.post(_calls(5)).status == 200
