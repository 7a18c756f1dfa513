"""The `CallLedger` contract, run against both adapters (memory and DynamoDB on moto).

One suite so the adapters cannot disagree (they once did: the in-memory one
granted credits to a missing account). The lifecycle is driven through
`Calls`, the settlement module the router and tasks use.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

import pytest

from mcp_platform.billing.ledger import EntryKind, IdempotencyKey, InsufficientCreditsError, UnknownAccountError
from mcp_platform.billing.lifecycle import (
    CallBilling,
    CallInProgressError,
    CallRecord,
    CallStart,
    CallState,
    IdempotencyConflictError,
    Replay,
    SweepDecision,
)
from tests.support.clock import Clock
from tests.support.ledgers import ADAPTERS, LedgerUnderTest, make

if TYPE_CHECKING:
    from collections.abc import Iterator

ACCOUNT = "acct_contract"
DEADLINE = 30.0


@pytest.fixture(params=ADAPTERS)
def lut(request: pytest.FixtureRequest) -> Iterator[LedgerUnderTest]:
    if request.param == "dynamodb":
        request.getfixturevalue("aws")
    under_test = make(request.param)
    under_test.open_account(ACCOUNT)
    yield under_test


@pytest.fixture
def clock() -> Clock:
    return Clock(1_000_000.0)


@pytest.fixture
def calls(lut: LedgerUnderTest, clock: Clock) -> CallBilling:
    return CallBilling(lut.ledger, clock=clock, sleep=lambda s: setattr(clock, "now", clock.now + s))


def start(clock: Clock, amount: int = 3, key: IdempotencyKey | None = None, tool: str = "fake_paid") -> CallStart:
    return CallStart(ACCOUNT, tool, amount, "r1", clock.now + DEADLINE, idempotency=key)


def key(arguments: bytes = b'{"text":"hi"}', header: str = "k1") -> IdempotencyKey:
    return IdempotencyKey.for_call(ACCOUNT, header, "fake_paid", arguments)


def ledger_sum(lut: LedgerUnderTest) -> int:
    return sum(e.amount for e in lut.ledger.entries(ACCOUNT, limit=1000))


def reserved(result: CallRecord | Replay) -> CallRecord:
    assert isinstance(result, CallRecord), result
    return result


def test_a_new_account_has_zero_and_a_grant_is_an_entry(lut: LedgerUnderTest) -> None:
    assert lut.ledger.balance(ACCOUNT) == 0
    assert lut.ledger.grant(ACCOUNT, 10, "welcome credits") == 10
    [entry] = lut.ledger.entries(ACCOUNT)
    assert (entry.kind, entry.amount, entry.reason) == (EntryKind.GRANT, 10, "welcome credits")


def test_a_grant_to_a_missing_account_fails_and_writes_nothing(lut: LedgerUnderTest) -> None:
    with pytest.raises(UnknownAccountError):
        lut.ledger.grant("acct_missing", 10, "x")
    assert lut.ledger.entries("acct_missing") == []
    assert lut.ledger.balance("acct_missing") == 0


def test_a_negative_grant_never_goes_below_zero(lut: LedgerUnderTest) -> None:
    lut.ledger.grant(ACCOUNT, 5, "w")
    with pytest.raises(InsufficientCreditsError) as info:
        lut.ledger.grant(ACCOUNT, -6, "too much")
    assert info.value.balance == 5
    assert lut.ledger.grant(ACCOUNT, -5, "back") == 0
    assert ledger_sum(lut) == 0


def test_reserve_charges_records_and_reports_the_balance_after(
    lut: LedgerUnderTest, calls: CallBilling, clock: Clock
) -> None:
    lut.ledger.grant(ACCOUNT, 10, "w")
    record = reserved(calls.reserve(start(clock)))
    assert (record.state, record.amount, record.balance_after) == (CallState.RESERVED, 3, 7)
    assert record.in_progress_until == clock.now + DEADLINE
    assert lut.ledger.balance(ACCOUNT) == 7
    newest = lut.ledger.entries(ACCOUNT)[0]
    assert (newest.entry_id, newest.kind, newest.amount, newest.call_id, newest.balance_after) == (
        record.entry_id,
        EntryKind.CHARGE,
        -3,
        record.call_id,
        7,
    )
    assert lut.ledger.get_call(record.call_id) == record


def test_reserve_beyond_the_balance_raises_and_writes_nothing(
    lut: LedgerUnderTest, calls: CallBilling, clock: Clock
) -> None:
    lut.ledger.grant(ACCOUNT, 2, "w")
    with pytest.raises(InsufficientCreditsError) as info:
        calls.reserve(start(clock, key=key()))
    assert (info.value.balance, info.value.price) == (2, 3)
    assert len(lut.ledger.entries(ACCOUNT)) == 1
    assert lut.ledger.get_call(key().key) is None  # the key stays free
    assert calls.ledger.overdue_calls(clock.now + 10 * DEADLINE) == []


def test_settle_ends_the_call_charged_and_a_later_refund_changes_nothing(
    lut: LedgerUnderTest, calls: CallBilling, clock: Clock
) -> None:
    lut.ledger.grant(ACCOUNT, 10, "w")
    record = reserved(calls.reserve(start(clock)))
    assert calls.settle(record, {"echo": "hi"}) is True
    assert calls.settle(record, {"echo": "hi"}) is False
    assert calls.refund(record, "too late") is False
    assert lut.ledger.balance(ACCOUNT) == 7
    assert lut.ledger.get_call(record.call_id).state is CallState.SETTLED  # type: ignore[union-attr]
    assert ledger_sum(lut) == 7


def test_refund_gives_the_charge_back_once_and_says_why(lut: LedgerUnderTest, calls: CallBilling, clock: Clock) -> None:
    lut.ledger.grant(ACCOUNT, 10, "w")
    record = reserved(calls.reserve(start(clock)))
    assert calls.refund(record, "error result") is True
    assert calls.refund(record, "error result") is False
    assert calls.settle(record, None) is False
    assert lut.ledger.balance(ACCOUNT) == 10
    assert [(e.kind, e.amount) for e in lut.ledger.entries(ACCOUNT)] == [
        (EntryKind.REFUND, 3),
        (EntryKind.CHARGE, -3),
        (EntryKind.GRANT, 10),
    ]
    assert lut.ledger.entries(ACCOUNT)[0].reason == "error result"
    assert lut.ledger.get_call(record.call_id).state is CallState.REFUNDED  # type: ignore[union-attr]


def test_concurrent_reservations_never_overspend_and_each_reports_its_own_balance(
    lut: LedgerUnderTest, calls: CallBilling, clock: Clock
) -> None:
    lut.ledger.grant(ACCOUNT, 10, "w")

    def attempt(_: int) -> int | None:
        try:
            return reserved(calls.reserve(start(clock))).balance_after
        except InsufficientCreditsError:
            return None

    with ThreadPoolExecutor(max_workers=10) as pool:
        balances = [b for b in pool.map(attempt, range(10)) if b is not None]
    assert sorted(balances) == [1, 4, 7]  # distinct: each is the balance right after its own charge
    assert lut.ledger.balance(ACCOUNT) == 1
    assert ledger_sum(lut) == 1


def test_an_idempotent_retry_replays_the_settled_result_uncharged(
    lut: LedgerUnderTest, calls: CallBilling, clock: Clock
) -> None:
    lut.ledger.grant(ACCOUNT, 10, "w")
    record = reserved(calls.reserve(start(clock, key=key())))
    calls.settle(record, {"structured_content": {"echo": "hi", "credits_charged": 3}})
    replay = calls.reserve(start(clock, key=key()))
    assert replay == Replay({"structured_content": {"echo": "hi", "credits_charged": 3}})
    assert lut.ledger.balance(ACCOUNT) == 7
    assert ledger_sum(lut) == 7


def test_the_same_key_for_other_arguments_or_another_tool_is_a_conflict(
    lut: LedgerUnderTest, calls: CallBilling, clock: Clock
) -> None:
    lut.ledger.grant(ACCOUNT, 10, "w")
    calls.settle(reserved(calls.reserve(start(clock, key=key()))), {"r": 1})
    with pytest.raises(IdempotencyConflictError):
        calls.reserve(start(clock, key=key(b'{"text":"other"}')))
    other_tool = IdempotencyKey.for_call(ACCOUNT, "k1", "fake_other", b'{"text":"hi"}')
    with pytest.raises(IdempotencyConflictError):
        calls.reserve(start(clock, key=other_tool, tool="fake_other"))
    assert lut.ledger.balance(ACCOUNT) == 7


def test_a_retry_of_a_running_call_waits_then_says_in_progress(
    lut: LedgerUnderTest, calls: CallBilling, clock: Clock
) -> None:
    lut.ledger.grant(ACCOUNT, 10, "w")
    reserved(calls.reserve(start(clock, key=key())))
    with pytest.raises(CallInProgressError):
        calls.reserve(start(clock, key=key()), wait_until=clock.now + 1)
    assert lut.ledger.balance(ACCOUNT) == 7


def test_a_refunded_idempotent_call_can_run_again_and_is_charged_once(
    lut: LedgerUnderTest, calls: CallBilling, clock: Clock
) -> None:
    lut.ledger.grant(ACCOUNT, 10, "w")
    first = reserved(calls.reserve(start(clock, key=key())))
    calls.refund(first, "error result")
    again = reserved(calls.reserve(start(clock, key=key())))
    assert again.attempt == first.attempt + 1 and again.entry_id != first.entry_id
    assert lut.ledger.balance(ACCOUNT) == 7
    assert calls.refund(first, "stale") is False  # the old attempt cannot touch the new one
    assert lut.ledger.balance(ACCOUNT) == 7


def test_a_retry_after_the_deadline_takes_over_and_the_stale_charge_is_refunded(
    lut: LedgerUnderTest, calls: CallBilling, clock: Clock
) -> None:
    lut.ledger.grant(ACCOUNT, 10, "w")
    first = reserved(calls.reserve(start(clock, key=key())))  # the router died here
    clock.now += DEADLINE + 1
    second = reserved(calls.reserve(start(clock, key=key())))
    assert second.attempt == first.attempt + 1
    assert lut.ledger.balance(ACCOUNT) == 7
    assert ledger_sum(lut) == 7
    assert calls.settle(first, None) is False


def test_the_sweep_refunds_overdue_reservations_exactly_once(
    lut: LedgerUnderTest, calls: CallBilling, clock: Clock
) -> None:
    lut.ledger.grant(ACCOUNT, 10, "w")
    dead = reserved(calls.reserve(start(clock)))
    done = reserved(calls.reserve(start(clock)))
    calls.settle(done, None)
    assert calls.sweep().to_wire()["credits_returned"] == 0  # nothing is overdue yet
    clock.now += DEADLINE + 1
    with ThreadPoolExecutor(max_workers=2) as pool:
        reports = list(pool.map(lambda _: calls.sweep(), range(2)))
    refunded = [r for report in reports for r in report.refunded]
    assert [r["call_id"] for r in refunded] == [dead.call_id]
    assert lut.ledger.balance(ACCOUNT) == 7
    assert ledger_sum(lut) == 7
    [refund] = [e for e in lut.ledger.entries(ACCOUNT, limit=100) if e.kind == EntryKind.REFUND]
    assert (refund.call_id, refund.amount) == (dead.call_id, 3)
    assert "deadline" in refund.reason
    assert calls.settle(dead, None) is False  # a late router cannot charge it again


def test_a_resolver_can_settle_or_leave_an_overdue_record(
    lut: LedgerUnderTest, calls: CallBilling, clock: Clock
) -> None:
    lut.ledger.grant(ACCOUNT, 10, "w")
    finished = reserved(calls.reserve(start(clock)))
    running = reserved(calls.reserve(start(clock)))
    clock.now += DEADLINE + 1
    decisions = {finished.call_id: SweepDecision.SETTLE, running.call_id: SweepDecision.LEAVE}
    report = calls.sweep(lambda r: decisions[r.call_id])
    assert [r["call_id"] for r in report.settled] == [finished.call_id]
    assert [r["call_id"] for r in report.left] == [running.call_id]
    assert lut.ledger.balance(ACCOUNT) == 4


def test_a_waiting_retry_polls_with_backoff(
    lut: LedgerUnderTest, calls: CallBilling, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    lut.ledger.grant(ACCOUNT, 10, "w")
    reserved(calls.reserve(start(clock, key=key())))
    reads: list[str] = []
    get_call = lut.ledger.get_call
    monkeypatch.setattr(lut.ledger, "get_call", lambda call_id: reads.append(call_id) or get_call(call_id))
    with pytest.raises(CallInProgressError):
        calls.reserve(start(clock, key=key()), wait_until=clock.now + 25)
    assert 5 <= len(reads) <= 30  # 0.1, 0.2, 0.4, 0.8, then once a second: not 250 reads in 25 s


# -- issue 34 §3: the sweep and a retry past the deadline agree; a reserved record is never taken over


def task_start(clock: Clock, deadline: float = DEADLINE) -> CallStart:
    return CallStart(ACCOUNT, "fake_paid", 3, "task-1", clock.now + deadline, idempotency=key(), origin="task")


def test_a_retry_past_the_deadline_asks_the_resolver_before_refunding(lut: LedgerUnderTest, clock: Clock) -> None:
    lut.ledger.grant(ACCOUNT, 10, "w")
    calls = CallBilling(lut.ledger, clock=clock, resolver=lambda _r: SweepDecision.SETTLE)  # the task did finish
    reserved(calls.reserve(task_start(clock)))
    clock.now += DEADLINE + 1
    again = calls.reserve(task_start(clock))
    assert again == Replay({"task_id": "task-1"})  # its handle, not a second run
    assert lut.ledger.balance(ACCOUNT) == 7
    assert [e.kind for e in lut.ledger.entries(ACCOUNT, limit=10)].count(EntryKind.REFUND) == 0


def test_a_retry_past_the_deadline_of_a_task_still_running_is_in_progress(lut: LedgerUnderTest, clock: Clock) -> None:
    lut.ledger.grant(ACCOUNT, 10, "w")
    calls = CallBilling(lut.ledger, clock=clock, resolver=lambda _r: SweepDecision.LEAVE)
    reserved(calls.reserve(task_start(clock)))
    clock.now += DEADLINE + 1
    with pytest.raises(CallInProgressError):
        calls.reserve(task_start(clock))
    assert lut.ledger.balance(ACCOUNT) == 7


def test_a_task_the_sweep_settles_keeps_its_handle_for_retries(
    lut: LedgerUnderTest, calls: CallBilling, clock: Clock
) -> None:
    lut.ledger.grant(ACCOUNT, 10, "w")
    reserved(calls.reserve(task_start(clock)))
    clock.now += DEADLINE + 1
    assert len(calls.sweep(lambda _r: SweepDecision.SETTLE).settled) == 1
    assert calls.reserve(task_start(clock)) == Replay({"task_id": "task-1"})


def test_one_bad_record_does_not_stop_the_sweep(lut: LedgerUnderTest, calls: CallBilling, clock: Clock) -> None:
    lut.ledger.grant(ACCOUNT, 10, "w")
    bad = reserved(calls.reserve(start(clock)))
    good = reserved(calls.reserve(start(clock)))
    clock.now += DEADLINE + 1

    def resolver(record: CallRecord) -> SweepDecision:
        if record.call_id == bad.call_id:
            raise RuntimeError("task store unreachable")
        return SweepDecision.REFUND

    report = calls.sweep(resolver)
    assert [r["call_id"] for r in report.refunded] == [good.call_id]
    assert [r["call_id"] for r in report.failed] == [bad.call_id]
    assert report.to_wire()["failures"] == 1
    assert lut.ledger.balance(ACCOUNT) == 7


def test_a_reserved_record_is_never_taken_over_however_old(
    lut: LedgerUnderTest, calls: CallBilling, clock: Clock
) -> None:
    lut.ledger.grant(ACCOUNT, 10, "w")
    two_days = 2 * 86_400.0  # a task reservation outliving the idempotency TTL (24 h)
    first = reserved(calls.reserve(task_start(clock, deadline=two_days)))
    clock.now += 86_400 + 60
    with pytest.raises(CallInProgressError):
        calls.reserve(task_start(clock, deadline=two_days))
    assert lut.ledger.get_call(first.call_id) == first
    clock.now += two_days
    assert [r["call_id"] for r in calls.sweep().refunded] == [first.call_id]
    assert lut.ledger.balance(ACCOUNT) == 10
