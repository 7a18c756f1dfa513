"""Property-based: for any interleaving of grants, charges, settles, refunds, retries and sweeps, the books hold.

Hypothesis drives the settlement module (`Calls`) on each adapter through
random programs and checks after every step: balance == ledger sum (plus
journals), never negative, one entry per counted change, each charge refunded
at most once, a settled call never refunded, and the model's expected balance.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, consumes, invariant, rule, run_state_machine_as_test
from moto import mock_aws

from localdev.store import create_tables
from mcp_platform.billing.ledger import EntryKind, IdempotencyKey, InsufficientCreditsError
from mcp_platform.billing.lifecycle import (
    CallBilling,
    CallInProgressError,
    CallRecord,
    CallStart,
    CallState,
    IdempotencyConflictError,
    Replay,
)
from tests.support.clock import Clock
from tests.support.ledgers import LedgerUnderTest, make

ACCOUNT = "acct_prop"
DEADLINE = 30.0


class Books(RuleBasedStateMachine):
    kind = "memory"
    records = Bundle("records")

    def __init__(self) -> None:
        super().__init__()
        self.clock = Clock(1_000_000.0)
        self.lut: LedgerUnderTest = make(self.kind)
        self.lut.open_account(ACCOUNT)
        self.calls = CallBilling(self.lut.ledger, clock=self.clock, sleep=self.clock.sleep)
        self.expected = 0
        self.settled: set[str] = set()

    @rule(amount=st.integers(1, 20))
    def grant(self, amount: int) -> None:
        self.lut.ledger.grant(ACCOUNT, amount, "grant")
        self.expected += amount

    @rule(
        target=records,
        amount=st.integers(1, 8),
        key=st.sampled_from([None, "k1", "k2"]),
        args=st.sampled_from(["a", "b"]),
    )
    def reserve(self, amount: int, key: str | None, args: str) -> Any:
        idem = IdempotencyKey.for_call(ACCOUNT, key, "tool", args.encode()) if key else None
        start = CallStart(ACCOUNT, "tool", amount, "r", self.clock.now + DEADLINE, idem)
        try:
            outcome = self.calls.reserve(start)
        except (InsufficientCreditsError, IdempotencyConflictError, CallInProgressError):
            return None
        if isinstance(outcome, Replay):
            return None
        assert isinstance(outcome, CallRecord)
        # A take-over (stale record of the same key) may have refunded the previous attempt: re-read the truth.
        self.expected = self.lut.ledger.balance(ACCOUNT) if idem else self.expected - amount
        assert outcome.balance_after == self.expected
        return outcome

    @rule(record=consumes(records))
    def settle(self, record: CallRecord | None) -> None:
        if record is not None and self.calls.settle(record, {"ok": True}):
            self.settled.add(record.entry_id)

    @rule(record=consumes(records))
    def refund(self, record: CallRecord | None) -> None:
        if record is not None and self.calls.refund(record, "error result"):
            self.expected += record.amount

    @rule(record=records)
    def refund_again(self, record: CallRecord | None) -> None:
        """A retried refund (or a refund racing a settle) must change nothing a second time."""
        if record is not None and self.calls.refund(record, "retry"):
            self.expected += record.amount

    @rule(seconds=st.sampled_from([1.0, DEADLINE + 1]))
    def sweep(self, seconds: float) -> None:
        self.clock.now += seconds
        report = self.calls.sweep()
        self.expected += sum(r["amount"] for r in report.refunded + report.reversed)

    @invariant()
    def books_balance(self) -> None:
        audit = self.lut.ledger.audit(ACCOUNT)
        assert audit.consistent, audit
        assert audit.balance >= 0
        assert audit.balance == self.expected

    @invariant()
    def each_charge_refunded_at_most_once_and_settled_calls_never(self) -> None:
        entries = self.lut.ledger.entries(ACCOUNT, limit=10_000)
        refunds = Counter(e.entry_id.removesuffix("#refund") for e in entries if e.kind == EntryKind.REFUND)
        assert all(n == 1 for n in refunds.values())
        assert not (set(refunds) & self.settled)
        for entry_id in self.settled:
            [charge] = [e for e in entries if e.entry_id == entry_id]
            record = self.lut.ledger.get_call(charge.call_id)
            assert record is not None and (record.state is CallState.SETTLED or record.entry_id != entry_id)


def test_memory_books_hold_for_any_interleaving() -> None:
    run_state_machine_as_test(Books, settings=settings(max_examples=150, stateful_step_count=30, deadline=None))


class DynamoBooks(Books):
    kind = "dynamodb"

    def __init__(self) -> None:
        """A fresh moto (tables from template.yaml) per program: examples must not share state."""
        self._moto = mock_aws()
        self._moto.start()
        create_tables()
        super().__init__()

    def teardown(self) -> None:
        self._moto.stop()


def test_dynamodb_books_hold_for_any_interleaving() -> None:
    run_state_machine_as_test(
        DynamoBooks,
        settings=settings(
            max_examples=10,
            stateful_step_count=20,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
        ),
    )
