"""tools/call billing through the gateway: validate, reserve, invoke, settle or refund, replay."""

from __future__ import annotations

import dataclasses
import io
import logging
from typing import Any

import orjson
import pytest

from mcp_platform.billing.ledger import EntryKind
from mcp_platform.billing.lifecycle import Calls
from mcp_platform.billing.memory import MemoryLedger
from mcp_platform.dispatch import ServiceReply
from mcp_platform.errors import error_object
from mcp_platform.observability import logger
from mcp_router.gateway import Gateway
from mcp_router.settings import RouterSettings
from tests.support.clock import Clock
from tests.support.router import (
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
OK = ServiceReply(structured_content={"echo": "done"})
FAILED = ServiceReply(structured_content=error_object("backend down", "upstream_unavailable"))


def _platform(*steps: Any, credits: int = 10) -> tuple[Platform, ScriptedInvoker]:
    invoker = ScriptedInvoker(list(steps))
    registry = fake_registry(
        fake_spec("fake_paid", price=PRICE),
        fake_spec("fake_free"),
        fake_spec("fake_balance", needs_balance=True, price=PRICE),
        fake_spec("fake_varies", price=lambda args: args.times * 2),
    )
    return platform(registry, invoker, credits=credits), invoker


def _kinds(plat: Platform) -> list[tuple[str, int]]:
    """Ledger entries oldest first, without the welcome grant."""
    entries = list(reversed(plat.ledger.entries(plat.account_id, limit=100)))
    assert entries[0].kind == EntryKind.GRANT
    return [(str(e.kind), e.amount) for e in entries[1:]]


def _assert_ledger_sums_to_balance(plat: Platform) -> None:
    assert sum(e.amount for e in plat.ledger.entries(plat.account_id, limit=1000)) == plat.ledger.balance(
        plat.account_id
    )


def test_a_billed_call_charges_exactly_its_price_and_reports_it() -> None:
    plat, invoker = _platform(OK)
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


def test_a_price_that_depends_on_the_arguments_is_charged_as_computed() -> None:
    plat, _ = _platform(OK)
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
def test_invalid_arguments_are_an_error_result_naming_the_field_and_cost_nothing(arguments: Any, field: str) -> None:
    plat, invoker = _platform(OK)
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


def test_insufficient_credits_is_an_error_result_and_the_service_is_not_invoked() -> None:
    plat, invoker = _platform(OK, credits=2)
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


def test_balance_runs_out_exactly() -> None:
    plat, _ = _platform(OK, credits=PRICE * 2)
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


def test_an_error_reply_is_refunded() -> None:
    plat, _ = _platform(FAILED)
    result = plat.call("fake_paid", {"text": "hi"})
    _assert_refunded(plat, result)
    assert result["structuredContent"]["code"] == "upstream_unavailable"
    assert result["structuredContent"]["error"] == "backend down"


def test_an_invoker_that_raises_is_refunded() -> None:
    plat, invoker = _platform(RuntimeError("boom"))
    result = plat.call("fake_paid", {"text": "hi"})
    _assert_refunded(plat, result)
    assert result["structuredContent"]["code"] == "upstream_unavailable"
    assert "boom" not in result["structuredContent"]["error"]
    assert len(invoker.calls) == 1


def test_a_waived_charge_is_refunded_but_stays_a_success() -> None:
    plat, _ = _platform(ServiceReply(structured_content={"echo": "gated"}, waive_charge=True))
    result = plat.call("fake_paid", {"text": "hi"})
    assert result["isError"] is False
    assert result["structuredContent"] == {"echo": "gated", "credits_charged": 0}
    structured_text_matches(result)
    assert plat.ledger.balance(plat.account_id) == 10
    assert _kinds(plat) == [("charge", -PRICE), ("refund", PRICE)]


def test_an_idempotent_retry_is_charged_once_and_replays_the_same_result() -> None:
    counter = iter(range(100))
    plat, invoker = _platform(lambda _req: ServiceReply(structured_content={"echo": f"run {next(counter)}"}))
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


def test_the_same_idempotency_key_with_other_arguments_is_an_error() -> None:
    plat, invoker = _platform(OK)
    headers = {"idempotency-key": "k1"}
    plat.call("fake_paid", {"text": "hi"}, headers)
    conflict = plat.call("fake_paid", {"text": "other"}, headers)
    assert conflict["isError"] is True
    assert "different call" in conflict["structuredContent"]["error"]
    structured_text_matches(conflict)
    assert len(invoker.calls) == 1
    assert plat.ledger.balance(plat.account_id) == 10 - PRICE


def test_a_failed_idempotent_call_can_be_retried_and_is_charged_only_when_it_succeeds() -> None:
    plat, invoker = _platform(FAILED, OK)
    headers = {"idempotency-key": "k2"}
    assert plat.call("fake_paid", {"text": "hi"}, headers)["isError"] is True
    assert plat.call("fake_paid", {"text": "hi"}, headers)["structuredContent"]["credits_charged"] == PRICE
    assert len(invoker.calls) == 2
    assert plat.ledger.balance(plat.account_id) == 10 - PRICE
    _assert_ledger_sums_to_balance(plat)


def test_a_free_tool_writes_no_ledger_entry_and_has_no_credits_fields() -> None:
    plat, invoker = _platform(OK)
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


def test_a_needs_balance_tool_gets_the_callers_balance_before_the_call() -> None:
    plat, invoker = _platform(OK)
    plat.call("fake_balance", {"text": "hi"})
    [(_, request)] = invoker.calls
    assert request.balance == 10
    assert plat.ledger.balance(plat.account_id) == 10 - PRICE


def test_is_error_mirrors_structured_content_is_error_exactly() -> None:
    plat, _ = _platform(
        ServiceReply(structured_content={"echo": "x", "is_error": False}),
        ServiceReply(structured_content={"echo": "x", "is_error": "yes"}),
    )
    for _ in range(2):
        result = plat.call("fake_free", {"text": "hi"})
        assert result["isError"] is False
        structured_text_matches(result)


def test_extra_content_blocks_follow_the_text_block() -> None:
    image = {"type": "image", "data": "aGk=", "mimeType": "image/png"}
    plat, _ = _platform(ServiceReply(structured_content={"echo": "pic"}, content=[image]))
    result = plat.call("fake_paid", {"text": "hi"})
    assert result["content"][1:] == [image]
    assert orjson.loads(result["content"][0]["text"]) == result["structuredContent"]


def test_batch_members_are_billed_independently() -> None:
    plat, invoker = _platform(OK, credits=PRICE * 2)
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
    plat, invoker = _platform(OK)
    plat = _with_ledger(plat, _BrokenLedger)
    result = plat.call("fake_paid", {"text": "hi"})
    assert result["isError"] is True
    assert result["structuredContent"]["code"] == "upstream_unavailable"
    assert "nothing stays charged" in result["structuredContent"]["error"]
    assert "secret-host" not in result["content"][0]["text"]
    assert invoker.calls == []
    assert plat.ledger.balance(plat.account_id) == 10


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
    plat = platform(fake_registry(fake_spec("fake_paid", price=PRICE)), invoker, credits=10, clock=clock)
    plat = _with_ledger(plat, _RefundFails)
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
    swept = Calls(ledger, clock=clock).sweep()
    assert [r["call_id"] for r in swept.refunded] == [charge.call_id]
    assert plat.ledger.balance(plat.account_id) == 10
    again = plat.call("fake_paid", {"text": "hi"}, headers, rpc_id=3)
    assert again["structuredContent"] == {"echo": "done", "credits_charged": PRICE, "credits_balance": 10 - PRICE}
    assert plat.ledger.balance(plat.account_id) == 10 - PRICE
    _assert_ledger_sums_to_balance(plat)
