"""The persisted call lifecycle: one record per billed call, one settlement module.

    reserve ──► reserved ──► settled     (the service answered; the charge stands)
                    │
                    └──────► refunded    (an error, a waived charge, or no outcome by the deadline)

`Calls` is the platform's only billing path. The router's synchronous
`tools/call` and a durable task drive the same three operations:

- `reserve(CallStart)` takes the price (never below zero), writes the charge
  entry and the call record (state `reserved`, `in_progress_until` = the
  call's deadline) and returns the record with `balance_after`, the balance
  right after this charge. With an Idempotency-Key the record is keyed by it:
  a retry of a settled call gets `Replay` (uncharged), a retry of a running
  call waits briefly for it, a key reused for other arguments is
  `IdempotencyConflictError`.
- `settle(record, result)` ends it charged; `refund(record, reason)` ends it
  uncharged. Both are conditional on the record still being `reserved`, so
  whichever comes first wins and the other reports `False`: a charge is
  refunded at most once, and a settled call is never refunded.
- `sweep()` (the scheduled reconciliation, `mcp-admin reconcile`) ends every
  record still `reserved` after its deadline (refund, unless a resolver says
  the work finished), and reverses charges whose record was never written.

Storage is the `CallLedger` port: `billing/dynamodb.py` (DynamoDB) and
`billing/memory.py` (tests, benchmark) pass one contract suite.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from enum import StrEnum
from typing import Any, Protocol

from mcp_platform.billing.ledger import IdempotencyKey, Ledger
from mcp_platform.runtime.observability import logger

RECONCILE_REASON = "reconciled: no outcome by the call's deadline"
STALE_REASON = "reconciled: a retry found the call past its deadline"
_MAX_POLL_SECONDS = 1.0
_REOPEN_ROUNDS = 3
"""How often `reserve` re-tries to take over an Idempotency-Key (refunded or stale record) before giving up."""


class CallState(StrEnum):
    RESERVED = "reserved"
    SETTLED = "settled"
    REFUNDED = "refunded"


@dataclass(frozen=True)
class CallStart:
    """What a caller knows before a billed call runs."""

    account_id: str
    tool: str
    amount: int
    request_id: str
    deadline: float
    """Epoch seconds by which the outcome is known: the record's `in_progress_until`.
    The router passes its own remaining time; a task its maximum duration."""
    idempotency: IdempotencyKey | None = None
    origin: str = "call"
    """`call` (synchronous tools/call) or `task` (a durable task): shown by the sweep and the admin."""


@dataclass(frozen=True)
class CallRecord:
    call_id: str
    account_id: str
    tool: str
    amount: int
    request_id: str
    state: CallState
    in_progress_until: float
    attempt: int = 1
    """Bumped each time an Idempotency-Key is taken over (after a refund or a missed deadline)."""
    entry_id: str = ""
    """The charge's ledger entry; empty while an idempotent claim has not been charged yet."""
    balance_after: int | None = None
    fingerprint: str = ""
    origin: str = "call"
    result: dict[str, Any] | None = None
    reason: str = ""

    @property
    def charged(self) -> bool:
        return bool(self.entry_id)

    def summary(self) -> dict[str, Any]:
        """What the sweep and the admin print for a record."""
        return {
            "call_id": self.call_id,
            "account_id": self.account_id,
            "tool": self.tool,
            "amount": self.amount if self.charged else 0,
            "origin": self.origin,
            "request_id": self.request_id,
        }


@dataclass(frozen=True)
class Replay:
    """A settled call repeated with its Idempotency-Key: its stored result, not charged again."""

    result: dict[str, Any] | None
    """None when the result was too large to keep."""


class IdempotencyConflictError(Exception):
    """The Idempotency-Key was used for a different call (another tool or other arguments)."""


class CallInProgressError(Exception):
    """The Idempotency-Key belongs to a call still running: retrying shortly will replay its result."""


class CallExistsError(Exception):
    """Raised by a `CallLedger` when the record of an idempotent call already exists."""

    def __init__(self, record: CallRecord) -> None:
        super().__init__(record.call_id)
        self.record = record


class ChargeNotRecordedError(Exception):
    """The price was taken but the call record could not be written: the call must not run.

    `held` is what stays taken: 0 when the charge was given back at once, else its amount, which
    the sweep gives back once the call's deadline has passed (the charge's journal says so).
    """

    def __init__(self, record: CallRecord, held: int) -> None:
        super().__init__(f"charge {record.entry_id} not recorded; {held} credits held")
        self.record = record
        self.held = held


class SweepDecision(StrEnum):
    SETTLE = "settle"
    REFUND = "refund"
    LEAVE = "leave"


Resolver = Callable[[CallRecord], SweepDecision]
"""Decides an overdue record: a task store answers SETTLE for a task that completed but whose settle was lost."""


@dataclass
class SweepReport:
    reversed: list[dict[str, Any]] = field(default_factory=list)
    """Charges taken but never written as a call (router stopped in between): given back."""
    refunded: list[dict[str, Any]] = field(default_factory=list)
    settled: list[dict[str, Any]] = field(default_factory=list)
    left: list[dict[str, Any]] = field(default_factory=list)
    failed: list[dict[str, Any]] = field(default_factory=list)
    """Records this run could not decide (their resolver or write failed): logged, left for the next run."""

    def to_wire(self) -> dict[str, Any]:
        return {
            "reversed": self.reversed,
            "refunded": self.refunded,
            "settled": self.settled,
            "left": self.left,
            "failed": self.failed,
            "failures": len(self.failed),
            "credits_returned": sum(r["amount"] for r in (*self.reversed, *self.refunded)),
        }


class CallLedger(Ledger, Protocol):
    """Storage of balances, ledger entries and call records (DynamoDB, or memory for tests)."""

    def open_call(self, start: CallStart, *, now: float, replaces: int | None = None) -> CallRecord:
        """Charge `start.amount` and write the reserved record; returns it with `entry_id` and `balance_after`.

        Idempotent calls (`start.idempotency`) are keyed by the key: the record
        is claimed first, and only if it is absent or expired (`replaces=None`),
        or refunded at attempt `replaces`. Raises `CallExistsError` with the
        record otherwise, `InsufficientCreditsError` (nothing kept) when the
        balance is short, and `ChargeNotRecordedError` when the charge was taken
        but its record could not be written.
        """
        ...

    def settle_call(self, record: CallRecord, result: dict[str, Any] | None) -> bool:
        """reserved → settled (keeping `result` for replay); False if the record is no longer reserved."""
        ...

    def refund_call(self, record: CallRecord, reason: str) -> bool:
        """reserved → refunded, giving the charge back with a refund entry; False if already ended."""
        ...

    def get_call(self, call_id: str) -> CallRecord | None: ...

    def overdue_calls(self, now: float, limit: int = 500) -> list[CallRecord]:
        """Records still reserved whose `in_progress_until` has passed, oldest first."""
        ...

    def reverse_stranded(self, now: float) -> list[CallRecord]:
        """Give back charges taken but never recorded (the writer stopped in between) once past their deadline."""
        ...

    def audit(self, account_id: str) -> Audit:
        """The account's balance against its whole ledger, open journals and change count."""
        ...


@dataclass(frozen=True)
class Audit:
    """One account's books: what `mcp-admin reconcile --audit` prints and the property tests check."""

    account_id: str
    balance: int
    ledger_sum: int
    entries: int
    changes: int
    """The account's `seq`: every balance change counts one (a journalled charge before its entry lands)."""
    journals: int = 0
    """Charges taken whose entry is not written yet (between the two writes, or stranded)."""
    journalled: int = 0
    """The credits those charges took."""

    @property
    def consistent(self) -> bool:
        """Balance = ledger + journals, and exactly one entry per change: nothing lost, nothing extra."""
        return self.balance == self.ledger_sum - self.journalled and self.changes == self.entries + self.journals

    def to_wire(self) -> dict[str, Any]:
        return {**asdict(self), "consistent": self.consistent}


class CallBilling:
    """The settlement module: reserve, settle, refund and sweep over a `CallLedger`."""

    def __init__(
        self,
        ledger: CallLedger,
        *,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], None] = time.sleep,
        poll_seconds: float = 0.1,
        resolver: Resolver | None = None,
    ) -> None:
        """`resolver` decides an overdue record for the sweep and for a retry that finds one (default: refund)."""
        self.ledger = ledger
        self._clock = clock
        self._sleep = sleep
        self._poll = poll_seconds
        self._resolver = resolver

    def reserve(self, start: CallStart, *, wait_until: float | None = None) -> CallRecord | Replay:
        """Charge and record a call, or replay it (see the module doc).

        A retry of a running idempotent call polls its record until
        `wait_until` (default: no waiting) and then raises `CallInProgressError`.
        """
        if start.idempotency is None:
            return self.ledger.open_call(start, now=self._clock())
        replaces: int | None = None
        for _ in range(_REOPEN_ROUNDS):
            try:
                return self.ledger.open_call(start, now=self._clock(), replaces=replaces)
            except CallExistsError as exc:
                record = exc.record
            if record.fingerprint != start.idempotency.fingerprint:
                raise IdempotencyConflictError("this Idempotency-Key was used for a different call")
            if record.state is CallState.RESERVED:
                record = self._await(record, wait_until)
            if record.state is CallState.SETTLED:
                return Replay(record.result)
            if record.state is CallState.RESERVED:
                if record.in_progress_until > self._clock():
                    raise CallInProgressError("a call with this Idempotency-Key is still running; retry shortly")
                ended = self._end_overdue(record, self._resolver, STALE_REASON)
                if ended is SweepDecision.SETTLE:
                    return Replay(_kept_result(record))
                if ended is SweepDecision.LEAVE:
                    raise CallInProgressError("a call with this Idempotency-Key is still running; retry shortly")
            replaces = record.attempt
        raise CallInProgressError("this Idempotency-Key is being retried concurrently; retry shortly")

    def settle(self, record: CallRecord, result: dict[str, Any] | None = None) -> bool:
        """End a reservation charged. False: it was already refunded (by the sweep), so nothing stands."""
        return self.ledger.settle_call(record, result if record.fingerprint else None)

    def refund(self, record: CallRecord, reason: str) -> bool:
        """End a reservation uncharged. False: it had already ended (refunded or settled) before."""
        return self.ledger.refund_call(record, reason)

    def sweep(self, resolver: Resolver | None = None, *, limit: int = 500) -> SweepReport:
        """Reconcile: end every reservation past its deadline. Safe to run concurrently and repeatedly.

        One record that fails (its resolver, its write) is logged and counted in `failed`; the run goes on.
        """
        now = self._clock()
        report = SweepReport(reversed=[r.summary() for r in self.ledger.reverse_stranded(now)])
        lists = {SweepDecision.SETTLE: report.settled, SweepDecision.REFUND: report.refunded}
        for record in self.ledger.overdue_calls(now, limit):
            try:
                ended = self._end_overdue(record, resolver or self._resolver, RECONCILE_REASON)
            except Exception:
                logger.exception("sweep: record not decided", extra=record.summary())
                report.failed.append(record.summary())
                continue
            if ended is SweepDecision.LEAVE:
                report.left.append(record.summary())
            elif ended is not None:
                lists[ended].append(record.summary())
        return report

    def _end_overdue(self, record: CallRecord, resolver: Resolver | None, reason: str) -> SweepDecision | None:
        """End a reservation past its deadline as `resolver` decides; what happened, None if another writer won.

        The one rule for the sweep and for a retry that finds the record: a task that finished is settled
        (its handle kept for retries), one still running is left, anything else refunded.
        """
        decision = resolver(record) if resolver else SweepDecision.REFUND
        if decision is SweepDecision.LEAVE:
            return decision
        if decision is SweepDecision.SETTLE:
            if record.charged and self.ledger.settle_call(record, _kept_result(record)):
                return decision
            return None
        return SweepDecision.REFUND if self.ledger.refund_call(record, reason) else None

    def _await(self, record: CallRecord, wait_until: float | None) -> CallRecord:
        """Poll a running record until it ends, its deadline passes, or `wait_until`."""
        limit = min(wait_until or 0.0, record.in_progress_until)
        delay = self._poll
        while record.state is CallState.RESERVED and self._clock() + delay < limit:
            self._sleep(delay)
            delay = min(delay * 2, _MAX_POLL_SECONDS)  # a long call costs a handful of reads, not one per 100 ms
            current = self.ledger.get_call(record.call_id)
            if current is None:  # released: the first attempt found the balance short
                return replace(record, state=CallState.REFUNDED)
            record = current
        return record


def _kept_result(record: CallRecord) -> dict[str, Any] | None:
    """What a record settled without its reply keeps for replay: a task's call, its task id (the handle)."""
    return {"task_id": record.request_id} if record.origin == "task" and record.fingerprint else None


def new_call_id() -> str:
    return uuid.uuid4().hex
