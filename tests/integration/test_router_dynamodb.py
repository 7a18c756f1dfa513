"""The whole gateway over moto DynamoDB, wired by `dependencies_from_env`: behaviour and request budgets."""

from __future__ import annotations

import dataclasses
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import orjson
import pytest

from localdev.invoker import InProcessInvoker
from mcp_platform.auth.accounts import AccountAdmin
from mcp_platform.auth.dynamodb import DynamoAccountStore
from mcp_platform.billing.dynamodb import DynamoLedger
from mcp_platform.protocol.errors import error_object
from mcp_platform.protocol.payloads import ServiceReply
from mcp_platform.ratelimit.limiter import DynamoRateLimiter
from mcp_platform.storage.aws import client
from mcp_router.gateway import Gateway
from mcp_router.http import HttpRequest, HttpResponse
from mcp_router.wiring import dependencies_from_env
from tests.support.clock import Clock
from tests.support.dynamo import TABLE_ENV, count_requests, router_env
from tests.support.router import JSON_HEADERS, ScriptedInvoker, fake_registry, fake_spec, message

if TYPE_CHECKING:
    from collections.abc import Iterator

PRICE = 3


@dataclasses.dataclass
class Live:
    gateway: Gateway
    admin: AccountAdmin
    ddb: Any
    key: str
    account_id: str

    def post(self, payload: Any, headers: dict[str, str] | None = None) -> HttpResponse:
        all_headers = {**JSON_HEADERS, "authorization": f"Bearer {self.key}", **(headers or {})}
        return self.gateway.handle(HttpRequest("POST", "/mcp", all_headers, orjson.dumps(payload)))

    def call(self, tool: str, arguments: dict[str, Any], headers: dict[str, str] | None = None) -> dict[str, Any]:
        response = self.post(message("tools/call", {"name": tool, "arguments": arguments}), headers)
        assert response.status == 200, response.body
        return orjson.loads(response.body)["result"]


def _live(invoker: Any = None, credits: int = 10, **env: str) -> Live:
    deps = dependencies_from_env(
        invoker=invoker or InProcessInvoker(), env=router_env(**{"KEY_CACHE_SECONDS": "30", **env})
    )
    if isinstance(invoker, ScriptedInvoker):
        deps = dataclasses.replace(deps, registry=fake_registry(fake_spec("fake_paid", price=PRICE)))
    ddb = client("dynamodb")
    admin = AccountAdmin(
        DynamoAccountStore(ddb, TABLE_ENV["ACCOUNTS_TABLE"], TABLE_ENV["API_KEYS_TABLE"]),
        DynamoLedger(ddb, TABLE_ENV["ACCOUNTS_TABLE"], TABLE_ENV["LEDGER_TABLE"], TABLE_ENV["CALLS_TABLE"]),
    )
    account = admin.create_account("live", frozenset(deps.registry.services), credits, account_id="acct_live")
    return Live(Gateway(deps), admin, ddb, admin.issue_key(account.account_id), account.account_id)


@pytest.fixture(autouse=True)
def fresh_clients(aws: None) -> Iterator[None]:
    """`mcp_platform.storage.aws.client` caches per process: each test gets clients of its own moto session."""
    client.cache_clear()
    yield
    client.cache_clear()


@pytest.fixture
def live() -> Live:
    return _live()


@pytest.fixture
def billed() -> tuple[Live, ScriptedInvoker]:
    invoker = ScriptedInvoker([ServiceReply(structured_content={"echo": "ok"})])
    return _live(invoker), invoker


def test_hello_ping_end_to_end(live: Live) -> None:
    result = live.call("hello_ping", {"name": "Ada"})
    assert result["structuredContent"]["message"] == "hello, Ada"
    assert "credits_charged" not in result["structuredContent"]
    assert [e["kind"] for e in live.admin.show(live.account_id)["ledger"]] == ["grant"]


def test_a_free_call_with_the_key_cached_is_one_write_and_no_read(live: Live) -> None:
    live.call("hello_ping", {})  # warms the key cache
    with count_requests(live.ddb, client("dynamodb", once=True)) as counter:
        live.call("hello_ping", {})
    assert counter.writes == 1 and counter.reads == 0, dict(counter)
    assert dict(counter) == {"UpdateItem": 1}


def test_a_batch_of_tool_calls_takes_one_each_in_one_write(live: Live) -> None:
    live.call("hello_ping", {})  # warms the key cache
    batch = [message("tools/call", {"name": "hello_ping", "arguments": {}}, rpc_id=i) for i in range(5)]
    with count_requests(live.ddb, client("dynamodb", once=True)) as counter:
        response = live.post(batch)
    assert response.status == 200 and len(orjson.loads(response.body)) == 5
    assert dict(counter) == {"UpdateItem": 1}
    assert response.headers["x-ratelimit-remaining"] == str(120 - 6)


def test_the_first_call_reads_the_key_and_account_once(live: Live) -> None:
    with count_requests(live.ddb, client("dynamodb", once=True)) as counter:
        live.call("hello_ping", {})
    assert dict(counter) == {"GetItem": 2, "UpdateItem": 1}


def test_a_billed_call_is_four_writes_and_no_read(billed: tuple[Live, ScriptedInvoker]) -> None:
    """Rate limit, debit (returns this call's balance), charge entry + record, settle: no read at all."""
    live, _ = billed
    live.call("fake_paid", {"text": "warm"})
    with count_requests(live.ddb, client("dynamodb", once=True)) as counter:
        result = live.call("fake_paid", {"text": "hi"})
    assert result["structuredContent"] == {"echo": "ok", "credits_charged": PRICE, "credits_balance": 10 - 2 * PRICE}
    assert counter.reads == 0, dict(counter)
    assert dict(counter) == {"UpdateItem": 3, "TransactWriteItems": 1}


def test_an_idempotent_billed_call_adds_one_conditional_put(billed: tuple[Live, ScriptedInvoker]) -> None:
    live, _ = billed
    live.call("fake_paid", {"text": "warm"})
    with count_requests(live.ddb, client("dynamodb", once=True)) as counter:
        live.call("fake_paid", {"text": "hi"}, {"idempotency-key": "count-me"})
    assert dict(counter) == {"UpdateItem": 3, "TransactWriteItems": 1, "PutItem": 1}
    with count_requests(live.ddb, client("dynamodb", once=True)) as counter:
        live.call("fake_paid", {"text": "hi"}, {"idempotency-key": "count-me"})
    assert dict(counter) == {"UpdateItem": 1, "PutItem": 1}  # the replay: the failed put returns the record


def test_a_failed_billed_call_is_refunded_in_dynamodb() -> None:
    failing = ScriptedInvoker([ServiceReply(structured_content=error_object("down", "upstream_unavailable"))])
    live = _live(failing)
    live.call("hello_ping", {})  # warms the key cache
    with count_requests(live.ddb, client("dynamodb", once=True)) as counter:
        result = live.call("fake_paid", {"text": "hi"})
    # Rate limit, debit, charge entry + record; then the refund: one transaction.
    assert dict(counter) == {"UpdateItem": 2, "TransactWriteItems": 2}
    assert result["isError"] is True and result["structuredContent"]["credits_charged"] == 0
    shown = live.admin.show(live.account_id)
    assert shown["balance"] == 10
    assert [(e["kind"], e["amount"]) for e in shown["ledger"]] == [("refund", 3), ("charge", -3), ("grant", 10)]


def test_an_idempotent_retry_through_dynamodb_is_charged_once(billed: tuple[Live, ScriptedInvoker]) -> None:
    live, invoker = billed
    headers = {"idempotency-key": "abc"}
    first = live.call("fake_paid", {"text": "hi"}, headers)
    second = live.call("fake_paid", {"text": "hi"}, headers)
    assert first == second
    assert len(invoker.calls) == 1
    assert live.admin.show(live.account_id)["balance"] == 10 - PRICE


def test_concurrent_billed_calls_through_the_gateway_never_overspend(billed: tuple[Live, ScriptedInvoker]) -> None:
    live, invoker = billed
    with ThreadPoolExecutor(max_workers=10) as pool:
        results = list(pool.map(lambda i: live.call("fake_paid", {"text": str(i)}), range(10)))
    charged = [r for r in results if not r["isError"]]
    assert len(charged) == 3
    assert {r["structuredContent"]["code"] for r in results if r["isError"]} == {"insufficient_credits"}
    assert len(invoker.calls) == 3
    shown = live.admin.show(live.account_id)
    assert shown["balance"] == 1
    assert sum(e["amount"] for e in shown["ledger"]) == 1


def test_the_rate_limit_is_shared_through_the_table() -> None:
    live = _live(RATE_LIMIT_PER_MINUTE="2")
    # Both instances count on one clock 30 s into a window: a real minute boundary cannot split the test.
    limiter = DynamoRateLimiter(live.ddb, TABLE_ENV["RATE_LIMIT_TABLE"], Clock(1_800_000_030.0))
    live.gateway = Gateway(dataclasses.replace(live.gateway._deps, limiter=limiter))
    deps = dependencies_from_env(invoker=InProcessInvoker(), env=router_env(RATE_LIMIT_PER_MINUTE="2"))
    other_instance = Gateway(dataclasses.replace(deps, limiter=limiter))
    ping = orjson.dumps(message("ping"))
    headers = {**JSON_HEADERS, "authorization": f"Bearer {live.key}"}
    statuses = [
        gateway.handle(HttpRequest("POST", "/mcp", headers, ping)).status
        for gateway in (live.gateway, other_instance, live.gateway)
    ]
    assert statuses == [200, 200, 429]


def test_a_revoked_key_stops_working_once_the_cache_expires() -> None:
    live = _live(KEY_CACHE_SECONDS="0")
    assert live.post(message("ping")).status == 200
    live.admin.revoke_key(live.key)
    response = live.post(message("ping"))
    assert response.status == 401
    assert response.headers["www-authenticate"].startswith("Bearer")


def test_credits_balance_resource_reads_dynamodb(billed: tuple[Live, ScriptedInvoker]) -> None:
    live, _ = billed
    live.call("fake_paid", {"text": "hi"})
    response = live.post(message("resources/read", {"uri": "credits://balance"}))
    data = orjson.loads(orjson.loads(response.body)["result"]["contents"][0]["text"])
    assert data["balance"] == 10 - PRICE
    assert [(e["kind"], e["amount"]) for e in data["entries"]] == [("charge", -PRICE), ("grant", 10)]
