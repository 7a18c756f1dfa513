"""`CallLedger` in memory with the DynamoDB adapter's semantics: fast tests and the router benchmark.

One lock makes every operation atomic, so there is no window between a charge
and its record here (`reverse_stranded` has nothing to find); everything else
behaves as `billing/dynamodb.py` does, which the shared contract suite checks.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from mcp_platform.billing.ledger import (
    IDEMPOTENCY_TTL_SECONDS,
    EntryKind,
    InsufficientCreditsError,
    LedgerEntry,
    UnknownAccountError,
    new_entry_id,
    now_iso,
    refund_entry_id,
)
from mcp_platform.billing.lifecycle import Audit, CallExistsError, CallRecord, CallStart, CallState, new_call_id

if TYPE_CHECKING:
    from mcp_platform.auth.store import AccountStore


class MemoryLedger:
    def __init__(self, accounts: AccountStore) -> None:
        """`accounts` says which accounts exist: credits go only to those, as in DynamoDB."""
        self._accounts = accounts
        self._balances: dict[str, int] = {}
        self._entries: dict[str, dict[str, LedgerEntry]] = {}
        self._calls: dict[str, tuple[CallRecord, float]] = {}
        """call id → (record, expires_at)."""
        self._lock = threading.RLock()

    # -- Ledger

    def grant(self, account_id: str, amount: int, reason: str) -> int:
        with self._lock:
            if self._accounts.get_account(account_id) is None:
                raise UnknownAccountError(account_id)
            balance = self._balances.get(account_id, 0)
            if balance + amount < 0:
                raise InsufficientCreditsError(balance, -amount)
            self._apply(account_id, new_entry_id(), EntryKind.GRANT, amount, reason=reason)
            return self._balances[account_id]

    def balance(self, account_id: str) -> int:
        return self._balances.get(account_id, 0)

    def entries(self, account_id: str, limit: int = 20) -> list[LedgerEntry]:
        with self._lock:
            entries = self._entries.get(account_id, {})
            return [entries[k] for k in sorted(entries, reverse=True)[:limit]]

    # -- CallLedger

    def open_call(self, start: CallStart, *, now: float, replaces: int | None = None) -> CallRecord:
        with self._lock:
            call_id, attempt = new_call_id(), (replaces or 0) + 1
            if start.idempotency:
                call_id = start.idempotency.key
                if existing := self._calls.get(call_id):
                    record, expires_at = existing
                    taken_over = replaces == record.attempt and record.state is CallState.REFUNDED
                    if record.state is CallState.RESERVED or (expires_at >= now and not taken_over):
                        raise CallExistsError(record)
            balance = self._balances.get(start.account_id, 0)
            if self._accounts.get_account(start.account_id) is None or balance < start.amount:
                raise InsufficientCreditsError(balance, start.amount)
            entry_id = new_entry_id()
            self._apply(
                start.account_id,
                entry_id,
                EntryKind.CHARGE,
                -start.amount,
                tool=start.tool,
                request_id=start.request_id,
                call_id=call_id,
                balance_after=balance - start.amount,
            )
            record = CallRecord(
                call_id=call_id,
                account_id=start.account_id,
                tool=start.tool,
                amount=start.amount,
                request_id=start.request_id,
                state=CallState.RESERVED,
                in_progress_until=start.deadline,
                attempt=attempt,
                entry_id=entry_id,
                balance_after=balance - start.amount,
                fingerprint=start.idempotency.fingerprint if start.idempotency else "",
                origin=start.origin,
            )
            self._calls[call_id] = (record, now + IDEMPOTENCY_TTL_SECONDS)
            return record

    def settle_call(self, record: CallRecord, result: dict[str, Any] | None) -> bool:
        with self._lock:
            current = self._current(record)
            if current is None:
                return False
            self._calls[record.call_id] = (replace(current, state=CallState.SETTLED, result=result), self._ttl(record))
            return True

    def refund_call(self, record: CallRecord, reason: str) -> bool:
        with self._lock:
            current = self._current(record)
            if current is None:
                return False
            if current.charged:
                self._apply(
                    current.account_id,
                    refund_entry_id(current.entry_id),
                    EntryKind.REFUND,
                    current.amount,
                    tool=current.tool,
                    request_id=current.request_id,
                    call_id=current.call_id,
                    reason=reason,
                )
            self._calls[record.call_id] = (replace(current, state=CallState.REFUNDED, reason=reason), self._ttl(record))
            return True

    def get_call(self, call_id: str) -> CallRecord | None:
        with self._lock:
            found = self._calls.get(call_id)
            return found[0] if found else None

    def overdue_calls(self, now: float, limit: int = 500) -> list[CallRecord]:
        with self._lock:
            overdue = [
                r for r, _ in self._calls.values() if r.state is CallState.RESERVED and r.in_progress_until < now
            ]
            return sorted(overdue, key=lambda r: r.in_progress_until)[:limit]

    def reverse_stranded(self, now: float) -> list[CallRecord]:
        return []  # a charge and its record are written under one lock: nothing can be stranded

    def audit(self, account_id: str) -> Audit:
        with self._lock:
            entries = list(self._entries.get(account_id, {}).values())
            return Audit(
                account_id=account_id,
                balance=self.balance(account_id),
                ledger_sum=sum(e.amount for e in entries),
                entries=len(entries),
                changes=len(entries),
            )

    # -- internals

    def _current(self, record: CallRecord) -> CallRecord | None:
        """The stored record if it is the same attempt and still reserved."""
        found = self._calls.get(record.call_id)
        if found is None or found[0].attempt != record.attempt or found[0].state is not CallState.RESERVED:
            return None
        return found[0]

    def _ttl(self, record: CallRecord) -> float:
        return self._calls[record.call_id][1]

    def _apply(self, account_id: str, entry_id: str, kind: EntryKind, amount: int, **fields: Any) -> None:
        self._balances[account_id] = self._balances.get(account_id, 0) + amount
        self._entries.setdefault(account_id, {})[entry_id] = LedgerEntry(
            account_id=account_id, entry_id=entry_id, kind=kind, amount=amount, created_at=now_iso(), **fields
        )
