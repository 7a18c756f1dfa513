"""tools/call billing through the gateway: validate, reserve, invoke, settle or refund, replay."""

from __future__ import annotations

import dataclasses
import io
import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import orjson
import pytest

from mcp_platform.billing.ledger import EntryKind, IdempotencyKey
from mcp_platform.billing.lifecycle import CallBilling, CallStart
from mcp_platform.billing.memory import MemoryLedger
from mcp_platform.protocol.errors import ERRORS
from mcp_platform.protocol.payloads import ServiceReply, ServiceRequest
from mcp_platform.runtime.observability import logger
from mcp_router.gateway import Gateway
from mcp_router.http import HttpRequest
from mcp_router.settings import RouterSettings
from mcp_router.tool_calls import SETTLE_MARGIN_SECONDS
from tests.support.clock import Clock
from tests.support.faults import fail_with
from tests.support.ledgers import ADAPTERS
from tests.support.router import (
    FAILED,
    JSON_HEADERS,
    OK,
    Platform,
    ScriptedInvoker,
    body,
    fake_registry,
    fake_spec,
    message,
    platform,
    structured_text_matches,
)

PRICE = 3


def _registry() -> Any:
    return fake_registry(
        fake_spec("fake_paid", price=PRICE),
        fake_spec("fake_other", price=PRICE),
        fake_spec("fake_free"),
        fake_spec("fake_balance", needs_balance=True, price=PRICE),
        fake_spec("fake_varies", price=lambda args: args.times * 2),
    )


@pytest.fixture(params=ADAPTERS)
def adapter(request: pytest.FixtureRequest) -> str:
    """Every gateway billing test runs on both ledgers (DynamoDB on moto)."""
    if request.param == "dynamodb":
        request.getfixturevalue("aws")
    return str(request.param)


def _platform(
    adapter: str, *steps: Any, credits: int = 10, clock: Clock | None = None
) -> tuple[Platform, ScriptedInvoker]:
    invoker = ScriptedInvoker(list(steps))
    registry = _registry()
    return platform(registry, invoker, credits=credits, adapter=adapter, clock=clock), invoker


def _kinds(plat: Platform) -> list[tuple[str, int]]:
    """Ledger entries oldest first, without the welcome grant."""
    entries = list(reversed(plat.ledger.entries(plat.account_id, limit=100)))
    assert entries[0].kind == EntryKind.GRANT
    return [(str(e.kind), e.amount) for e in entries[1:]]


def _assert_ledger_sums_to_balance(plat: Platform) -> None:
    assert sum(e.amount for e in plat.ledger.entries(plat.account_id, limit=1000)) == plat.ledger.balance(
        plat.account_id
    )


def test_a_billed_call_charges_exactly_its_price_and_reports_it(adapter: str) -> None:
    plat, invoker = _platform(adapter, OK)
    result = plat.call("fake_paid", {"text": "hi"})
    assert result["isError"] is False
    assert result["structuredContent"] == {"echo": "done", "credits_charged": PRICE, "credits_balance": 10 - PRICE}
    structured_text_matches(result)
    assert plat.ledger.balance(plat.account_id) == 10 - PRICE
    assert _kinds(plat) == [("charge", -PRICE)]
    _assert_ledger_sums_to_balance(plat)
    [(service, request)] = invoker.calls
    assert service == "fake"
    assert request.tool == "fake_paid"
    assert request.arguments == {"text": "hi"}
    assert request.account_id == plat.account_id
    assert request.balance is None


def test_a_price_that_depends_on_the_arguments_is_charged_as_computed(adapter: str) -> None:
    plat, _ = _platform(adapter, OK)
    result = plat.call("fake_varies", {"text": "hi", "times": 4})
    assert result["structuredContent"]["credits_charged"] == 8
    assert plat.ledger.balance(plat.account_id) == 2


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({}, "text"),
        ({"text": ""}, "text"),
        ({"text": "x" * 51}, "text"),
        ({"text": "hi", "times": 0}, "times"),
        ({"text": "hi", "times": "lots"}, "times"),
        ({"text": "hi", "bogus": 1}, "bogus"),
        (["hi"], "arguments"),
        ("hi", "arguments"),
    ],
)
def test_invalid_arguments_are_an_error_result_naming_the_field_and_cost_nothing(
    adapter: str, arguments: Any, field: str
) -> None:
    plat, invoker = _platform(adapter, OK)
    result = plat.call("fake_paid", arguments)
    assert result["isError"] is True
    structured = result["structuredContent"]
    assert structured["is_error"] is True
    assert structured["code"] == "invalid_arguments"
    assert field in structured["error"]
    assert "credits_charged" not in structured
    structured_text_matches(result)
    assert invoker.calls == []
    assert _kinds(plat) == []
    assert plat.ledger.balance(plat.account_id) == 10


def test_insufficient_credits_is_an_error_result_and_the_service_is_not_invoked(adapter: str) -> None:
    plat, invoker = _platform(adapter, OK, credits=2)
    result = plat.call("fake_paid", {"text": "hi"})
    assert result["isError"] is True
    structured = result["structuredContent"]
    assert structured["code"] == "insufficient_credits"
    assert structured["price"] == PRICE and structured["balance"] == 2
    assert "fake_paid" in structured["error"]
    structured_text_matches(result)
    assert invoker.calls == []
    assert _kinds(plat) == []
    assert plat.ledger.balance(plat.account_id) == 2


def test_balance_runs_out_exactly(adapter: str) -> None:
    plat, _ = _platform(adapter, OK, credits=PRICE * 2)
    outcomes = [plat.call("fake_paid", {"text": "hi"})["structuredContent"] for _ in range(3)]
    assert [o.get("credits_balance") for o in outcomes[:2]] == [PRICE, 0]
    assert outcomes[2]["code"] == "insufficient_credits"
    assert plat.ledger.balance(plat.account_id) == 0


def _assert_refunded(plat: Platform, result: dict[str, Any]) -> None:
    assert result["isError"] is True
    assert result["structuredContent"]["credits_charged"] == 0
    assert "credits_balance" not in result["structuredContent"]
    structured_text_matches(result)
    assert plat.ledger.balance(plat.account_id) == 10
    assert _kinds(plat) == [("charge", -PRICE), ("refund", PRICE)]
    _assert_ledger_sums_to_balance(plat)


def test_an_error_reply_is_refunded(adapter: str) -> None:
    plat, _ = _platform(adapter, FAILED)
    result = plat.call("fake_paid", {"text": "hi"})
    _assert_refunded(plat, result)
    assert result["structuredContent"]["code"] == "upstream_unavailable"
    assert result["structuredContent"]["error"] == "backend down"


def test_an_invoker_that_raises_is_refunded(adapter: str) -> None:
    plat, invoker = _platform(adapter, RuntimeError("boom"))
    result = plat.call("fake_paid", {"text": "hi"})
    _assert_refunded(plat, result)
    assert result["structuredContent"]["code"] == "upstream_unavailable"
    assert "boom" not in result["structuredContent"]["error"]
    assert len(invoker.calls) == 1


def test_a_waived_charge_is_refunded_but_stays_a_success(adapter: str) -> None:
    plat, _ = _platform(adapter, ServiceReply(structured_content={"echo": "gated"}, waive_charge=True))
    result = plat.call("fake_paid", {"text": "hi"})
    assert result["isError"] is False
    assert result["structuredContent"] == {"echo": "gated", "credits_charged": 0}
    structured_text_matches(result)
    assert plat.ledger.balance(plat.account_id) == 10
    assert _kinds(plat) == [("charge", -PRICE), ("refund", PRICE)]


def test_an_idempotent_retry_is_charged_once_and_replays_the_same_result(adapter: str) -> None:
    counter = iter(range(100))
    plat, invoker = _platform(adapter, lambda _req: ServiceReply(structured_content={"echo": f"run {next(counter)}"}))
    headers = {"idempotency-key": "retry-me"}
    first = plat.call("fake_paid", {"text": "hi"}, headers)
    again = plat.call("fake_paid", {"text": "hi"}, headers)
    assert first == again
    assert first["structuredContent"] == {"echo": "run 0", "credits_charged": PRICE, "credits_balance": 10 - PRICE}
    assert len(invoker.calls) == 1
    assert _kinds(plat) == [("charge", -PRICE)]
    # Without the header, or with another key, it is a new call.
    assert plat.call("fake_paid", {"text": "hi"})["structuredContent"]["echo"] == "run 1"
    assert plat.call("fake_paid", {"text": "hi"}, {"idempotency-key": "other"})["structuredContent"]["echo"] == "run 2"
    assert plat.ledger.balance(plat.account_id) == 10 - 3 * PRICE


def test_the_same_idempotency_key_with_other_arguments_is_an_error(adapter: str) -> None:
    plat, invoker = _platform(adapter, OK)
    headers = {"idempotency-key": "k1"}
    plat.call("fake_paid", {"text": "hi"}, headers)
    conflict = plat.call("fake_paid", {"text": "other"}, headers)
    assert conflict["isError"] is True
    assert "different call" in conflict["structuredContent"]["error"]
    structured_text_matches(conflict)
    assert len(invoker.calls) == 1
    assert plat.ledger.balance(plat.account_id) == 10 - PRICE


def test_a_failed_idempotent_call_can_be_retried_and_is_charged_only_when_it_succeeds(adapter: str) -> None:
    plat, invoker = _platform(adapter, FAILED, OK)
    headers = {"idempotency-key": "k2"}
    assert plat.call("fake_paid", {"text": "hi"}, headers)["isError"] is True
    assert plat.call("fake_paid", {"text": "hi"}, headers)["structuredContent"]["credits_charged"] == PRICE
    assert len(invoker.calls) == 2
    assert plat.ledger.balance(plat.account_id) == 10 - PRICE
    _assert_ledger_sums_to_balance(plat)


def test_a_free_tool_writes_no_ledger_entry_and_has_no_credits_fields(adapter: str) -> None:
    plat, invoker = _platform(adapter, OK)
    result = plat.call("fake_free", {"text": "hi"}, {"idempotency-key": "ignored"})
    assert result["structuredContent"] == {"echo": "done"}
    assert _kinds(plat) == []
    assert len(invoker.calls) == 1


def test_hello_ping_is_free_through_the_real_handler() -> None:
    plat = platform(credits=0)
    result = plat.call("hello_ping", {"name": "Ada"})
    assert result["isError"] is False
    assert result["structuredContent"]["message"] == "hello, Ada"
    assert set(result["structuredContent"]) == {"message", "ts"}
    structured_text_matches(result)
    assert plat.ledger.entries(plat.account_id) == []


def test_a_needs_balance_tool_gets_the_callers_balance_before_the_call(adapter: str) -> None:
    plat, invoker = _platform(adapter, OK)
    plat.call("fake_balance", {"text": "hi"})
    [(_, request)] = invoker.calls
    assert request.balance == 10
    assert plat.ledger.balance(plat.account_id) == 10 - PRICE


def test_is_error_mirrors_structured_content_is_error_exactly(adapter: str) -> None:
    plat, _ = _platform(
        adapter,
        ServiceReply(structured_content={"echo": "x", "is_error": False}),
        ServiceReply(structured_content={"echo": "x", "is_error": "yes"}),
    )
    for _ in range(2):
        result = plat.call("fake_free", {"text": "hi"})
        assert result["isError"] is False
        structured_text_matches(result)


def test_extra_content_blocks_follow_the_text_block(adapter: str) -> None:
    image = {"type": "image", "data": "aGk=", "mimeType": "image/png"}
    plat, _ = _platform(adapter, ServiceReply(structured_content={"echo": "pic"}, content=[image]))
    result = plat.call("fake_paid", {"text": "hi"})
    assert result["content"][1:] == [image]
    assert orjson.loads(result["content"][0]["text"]) == result["structuredContent"]


def test_batch_members_are_billed_independently(adapter: str) -> None:
    plat, invoker = _platform(adapter, OK, credits=PRICE * 2)
    batch = [message("tools/call", {"name": "fake_paid", "arguments": {"text": str(i)}}, rpc_id=i) for i in range(4)]
    response = plat.post(batch)
    assert response.status == 200
    replies = sorted(body(response), key=lambda r: r["id"])
    codes = [r["result"]["structuredContent"].get("code") for r in replies]
    assert codes.count("insufficient_credits") == 2
    assert codes.count(None) == 2
    assert len(invoker.calls) == 2
    assert plat.ledger.balance(plat.account_id) == 0
    _assert_ledger_sums_to_balance(plat)


class _BrokenLedger(MemoryLedger):
    def open_call(self, *args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("dynamodb unreachable: secret-host")


def _with_ledger(plat: Platform, ledger_type: type[MemoryLedger]) -> Platform:
    """`plat` with its ledger replaced by a `ledger_type` holding the same account and credits."""
    ledger = ledger_type(plat.store)
    ledger.grant(plat.account_id, plat.ledger.balance(plat.account_id), "welcome credits")
    deps = dataclasses.replace(plat.deps, ledger=ledger)
    return dataclasses.replace(plat, gateway=Gateway(deps), deps=deps, ledger=ledger)


def test_a_ledger_outage_is_an_error_result_with_no_charge_and_no_invocation() -> None:
    plat, invoker = _platform("memory", OK)
    plat = _with_ledger(plat, _BrokenLedger)
    result = plat.call("fake_paid", {"text": "hi"})
    assert result["isError"] is True
    assert result["structuredContent"]["code"] == "upstream_unavailable"
    assert "nothing stays charged" in result["structuredContent"]["error"]
    assert "secret-host" not in result["content"][0]["text"]
    assert invoker.calls == []
    assert plat.ledger.balance(plat.account_id) == 10


@pytest.mark.usefixtures("aws")
@pytest.mark.parametrize(("failures", "held"), [(1, 0), (1_000, PRICE)])
def test_a_charge_whose_record_fails_says_what_stays_charged(failures: int, held: int) -> None:
    plat, invoker = _platform("dynamodb", OK)
    fail_with(plat.ledger._ddb, "TransactWriteItems", "InternalServerError", times=failures)  # type: ignore[attr-defined]
    result = plat.call("fake_paid", {"text": "hi"})
    assert result["isError"] is True and invoker.calls == []
    structured = result["structuredContent"]
    assert (structured["code"], structured["credits_charged"]) == ("upstream_unavailable", held)
    assert plat.ledger.balance(plat.account_id) == 10 - held
    if held:
        assert "nothing stays charged" not in structured["error"]
        assert f"{held} credits stay charged" in structured["error"]


class _RefundFails(MemoryLedger):
    """Refunds fail until `recovered` is set (the store comes back)."""

    recovered = False

    def refund_call(self, *args: Any, **kwargs: Any) -> bool:
        if not self.recovered:
            raise ConnectionError("dynamodb unreachable")
        return super().refund_call(*args, **kwargs)


def _capture_log(monkeypatch: pytest.MonkeyPatch) -> io.StringIO:
    log = io.StringIO()
    for handler in logging.getLogger(logger.service).handlers:
        monkeypatch.setattr(handler, "stream", log)  # Powertools keeps the stream it was created with
    return log


def test_a_failed_refund_reports_the_charge_that_stands_and_the_sweep_returns_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    log = _capture_log(monkeypatch)
    clock = Clock(1_000_000.0)
    invoker = ScriptedInvoker([FAILED, OK])
    plat = _with_ledger(platform(_registry(), invoker, credits=10, clock=clock), _RefundFails)
    headers = {"idempotency-key": "k-refund"}
    result = plat.call("fake_paid", {"text": "hi"}, headers, rpc_id=1)
    # Never "0 charged" while the charge stands: it says what stands, and the log names it.
    assert result["isError"] is True
    assert result["structuredContent"]["credits_charged"] == PRICE
    assert result["structuredContent"]["credits_balance"] == 10 - PRICE
    assert plat.ledger.balance(plat.account_id) == 10 - PRICE
    [charge] = [e for e in plat.ledger.entries(plat.account_id) if e.kind == "charge"]
    assert "the sweep refunds this charge" in log.getvalue()
    assert charge.call_id in log.getvalue()
    # A retry before the deadline neither runs nor charges: the first call is still open.
    retry = plat.call("fake_paid", {"text": "hi"}, headers, rpc_id=2)
    assert retry["structuredContent"]["code"] == "call_in_progress"
    assert len(invoker.calls) == 1
    assert plat.ledger.balance(plat.account_id) == 10 - PRICE
    # Past the deadline the sweep gives the credits back (once), and the retry runs and is charged once.
    clock.now += RouterSettings().router_timeout_seconds + 1
    ledger: Any = plat.ledger
    ledger.recovered = True
    swept = CallBilling(ledger, clock=clock).sweep()
    assert [r["call_id"] for r in swept.refunded] == [charge.call_id]
    assert plat.ledger.balance(plat.account_id) == 10
    again = plat.call("fake_paid", {"text": "hi"}, headers, rpc_id=3)
    assert again["structuredContent"] == {"echo": "done", "credits_charged": PRICE, "credits_balance": 10 - PRICE}
    assert plat.ledger.balance(plat.account_id) == 10 - PRICE
    _assert_ledger_sums_to_balance(plat)


def test_five_retries_with_one_key_and_new_json_rpc_ids_are_charged_once(adapter: str) -> None:
    """What an agent SDK does after a timeout: the same call, the same key, a new id each time."""
    counter = iter(range(100))
    plat, invoker = _platform(adapter, lambda _req: ServiceReply(structured_content={"echo": f"run {next(counter)}"}))
    headers = {"idempotency-key": "sdk-retry"}
    results = [plat.call("fake_paid", {"text": "hi"}, headers, rpc_id=f"id-{i}") for i in range(5)]
    assert all(r == results[0] for r in results)
    assert results[0]["structuredContent"] == {"echo": "run 0", "credits_charged": PRICE, "credits_balance": 7}
    assert len(invoker.calls) == 1
    assert plat.ledger.balance(plat.account_id) == 10 - PRICE
    assert _kinds(plat) == [("charge", -PRICE)]


def test_a_replay_answers_with_the_new_requests_id(adapter: str) -> None:
    plat, _ = _platform(adapter, OK)
    headers = {"idempotency-key": "same", **JSON_HEADERS}
    plat.post(message("tools/call", {"name": "fake_paid", "arguments": {"text": "hi"}}, rpc_id=1), headers)
    again = body(
        plat.post(message("tools/call", {"name": "fake_paid", "arguments": {"text": "hi"}}, rpc_id=99), headers)
    )
    assert again["id"] == 99
    assert again["result"]["structuredContent"]["credits_charged"] == PRICE


def test_the_same_key_for_another_tool_is_an_idempotency_conflict_and_costs_nothing(adapter: str) -> None:
    plat, invoker = _platform(adapter, OK)
    headers = {"idempotency-key": "k-tool"}
    plat.call("fake_paid", {"text": "hi"}, headers)
    conflict = plat.call("fake_other", {"text": "hi"}, headers, rpc_id=2)
    assert conflict["isError"] is True
    assert conflict["structuredContent"]["code"] == "idempotency_conflict"
    assert "credits_charged" not in conflict["structuredContent"]
    assert len(invoker.calls) == 1
    assert plat.ledger.balance(plat.account_id) == 10 - PRICE


def test_concurrent_retries_with_one_key_run_once_and_all_get_the_result(adapter: str) -> None:
    started, release = threading.Event(), threading.Event()

    def slow(request: ServiceRequest) -> ServiceReply:
        started.set()
        release.wait(5)
        return ServiceReply(structured_content={"echo": request.arguments["text"]})

    plat, invoker = _platform(adapter, slow)
    headers = {"idempotency-key": "together"}
    with ThreadPoolExecutor(max_workers=4) as pool:
        first = pool.submit(plat.call, "fake_paid", {"text": "hi"}, headers, 0)
        started.wait(5)
        retries = [pool.submit(plat.call, "fake_paid", {"text": "hi"}, headers, i) for i in range(1, 4)]
        time.sleep(0.3)  # the retries are waiting on the record now
        release.set()
        results = [first.result(), *(r.result() for r in retries)]
    assert len(invoker.calls) == 1
    assert all(r == results[0] for r in results), results
    assert results[0]["structuredContent"]["credits_charged"] == PRICE
    assert plat.ledger.balance(plat.account_id) == 10 - PRICE


def test_a_retry_that_outwaits_its_own_deadline_is_told_to_retry_and_nothing_runs(adapter: str) -> None:
    clock = Clock(1_000_000.0)
    plat, invoker = _platform(adapter, OK, clock=clock)
    headers = {"idempotency-key": "k-wait"}
    # A first attempt holds the key (its router is still running).
    key = IdempotencyKey.for_call(plat.account_id, "k-wait", "fake_paid", b'{"text":"hi"}')
    plat.deps.ledger.open_call(CallStart(plat.account_id, "fake_paid", PRICE, "r0", clock.now + 60, key), now=clock.now)
    result = plat.call("fake_paid", {"text": "hi"}, headers)
    assert result["structuredContent"]["code"] == "call_in_progress"
    assert ERRORS["call_in_progress"].retryable is True
    assert invoker.calls == []
    assert plat.ledger.balance(plat.account_id) == 10 - PRICE  # the first attempt's charge only


class _SettleFails(MemoryLedger):
    def settle_call(self, *args: Any, **kwargs: Any) -> bool:
        raise ConnectionError("dynamodb unreachable")


def test_a_failed_settle_is_not_a_500_the_result_is_free_and_a_retry_is_not_stuck() -> None:
    plat, invoker = _platform("memory", OK)
    plat = _with_ledger(plat, _SettleFails)
    headers = {"idempotency-key": "k-settle"}
    result = plat.call("fake_paid", {"text": "hi"}, headers)
    assert result["isError"] is False
    assert result["structuredContent"] == {"echo": "done", "credits_charged": 0}
    assert plat.ledger.balance(plat.account_id) == 10
    assert _kinds(plat) == [("charge", -PRICE), ("refund", PRICE)]
    retry = plat.call("fake_paid", {"text": "hi"}, headers, rpc_id=2)  # runs again rather than "still running"
    assert retry["isError"] is False
    assert len(invoker.calls) == 2


def test_a_batch_larger_than_the_cap_is_one_invalid_request() -> None:
    plat = platform(settings=RouterSettings(max_batch_size=3))
    response = plat.post([message("ping", rpc_id=i) for i in range(4)])
    assert response.status == 400
    error = body(response)["error"]
    assert error["code"] == -32600
    assert "at most 3" in error["message"]


def test_a_batch_member_that_raises_is_its_own_error_and_the_others_settle(
    adapter: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    plat, _ = _platform(adapter, OK)
    methods = plat.gateway._methods
    dispatch = methods.dispatch

    def flaky(ex: Any, method: str, params: dict[str, Any]) -> dict[str, Any]:
        if method == "ping":
            raise RuntimeError("a bug in one member")
        return dispatch(ex, method, params)

    monkeypatch.setattr(methods, "dispatch", flaky)
    batch = [
        message("tools/call", {"name": "fake_paid", "arguments": {"text": "a"}}, rpc_id=1),
        message("ping", rpc_id=2),
        message("tools/call", {"name": "fake_paid", "arguments": {"text": "b"}}, rpc_id=3),
    ]
    response = plat.post(batch)
    assert response.status == 200
    replies = {r["id"]: r for r in body(response)}
    assert replies[2]["error"]["code"] == -32603
    assert [replies[i]["result"]["structuredContent"]["credits_charged"] for i in (1, 3)] == [PRICE, PRICE]
    balances = {replies[i]["result"]["structuredContent"]["credits_balance"] for i in (1, 3)}
    assert balances == {7, 4}  # each member's own balance after its own charge
    assert plat.ledger.balance(plat.account_id) == 10 - 2 * PRICE
    assert plat.deps.ledger.overdue_calls(time.time() + 3600) == []  # every charge ended settled
    _assert_ledger_sums_to_balance(plat)


def test_batch_members_sharing_the_key_are_told_apart_by_their_id(adapter: str) -> None:
    plat, invoker = _platform(adapter, OK)
    batch = [message("tools/call", {"name": "fake_paid", "arguments": {"text": "a"}}, rpc_id=i) for i in (1, 2)]
    headers = {"idempotency-key": "batch-key"}
    first = body(plat.post(batch, headers))
    again = body(plat.post(batch, headers))
    assert len(invoker.calls) == 2
    assert sorted(first, key=lambda r: r["id"]) == sorted(again, key=lambda r: r["id"])
    assert plat.ledger.balance(plat.account_id) == 10 - 2 * PRICE


def test_the_service_timeout_comes_from_the_routers_remaining_time(adapter: str) -> None:
    clock = Clock(1_000_000.0)
    plat, invoker = _platform(adapter, OK, clock=clock)
    plat.call("fake_paid", {"text": "hi"})
    assert invoker.timeouts == [RouterSettings().service_timeout_seconds + 1]  # plenty of time: the service's own
    request = HttpRequest(
        "POST",
        "/mcp",
        {**JSON_HEADERS, "authorization": f"Bearer {plat.key}"},
        orjson.dumps(message("tools/call", {"name": "fake_paid", "arguments": {"text": "hi"}})),
        deadline=clock.now + 10,
    )
    plat.gateway.handle(request)
    assert invoker.timeouts[-1] == 10 - SETTLE_MARGIN_SECONDS  # what is left, minus time to settle
    late = dataclasses.replace(request, deadline=clock.now + SETTLE_MARGIN_SECONDS + 0.5)
    result = body(plat.gateway.handle(late))["result"]
    assert result["isError"] is True and result["structuredContent"]["credits_charged"] == 0
    assert len(invoker.calls) == 2  # too little time left: not started, refunded
    assert plat.ledger.balance(plat.account_id) == 10 - 2 * PRICE


def test_a_failed_billed_call_grows_the_ledger_by_two_entries_and_takes_a_rate_unit() -> None:
    """What bounds the ledger: a refunded call writes a charge and a refund, and costs one rate unit like any call."""
    plat = platform(_registry(), ScriptedInvoker([FAILED] * 3), RouterSettings(rate_limit_per_minute=3), credits=10)
    for _ in range(3):
        assert plat.call("fake_paid", {"text": "hi"})["isError"] is True
    assert plat.post(message("tools/call", {"name": "fake_paid", "arguments": {"text": "hi"}})).status == 429
    assert _kinds(plat) == [("charge", -PRICE), ("refund", PRICE)] * 3  # 2 entries per unit, no more
    assert plat.ledger.balance(plat.account_id) == 10
