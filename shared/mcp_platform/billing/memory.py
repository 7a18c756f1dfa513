"""Ledger in memory with the DynamoDB ledger's semantics: fast tests and the router benchmark."""

from __future__ import annotations

import threading
from typing import Any

from mcp_platform.billing.ledger import (
    Charge,
    EntryKind,
    IdempotencyConflictError,
    IdempotencyKey,
    IdempotentReplayError,
    InsufficientCreditsError,
    LedgerEntry,
    new_entry_id,
    now_iso,
    refund_entry_id,
)


class MemoryLedger:
    def __init__(self) -> None:
        self._balances: dict[str, int] = {}
        self._entries: dict[str, dict[str, LedgerEntry]] = {}
        self._idem: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()

    def reserve(
        self, account_id: str, amount: int, *, tool: str, request_id: str, idempotency: IdempotencyKey | None = None
    ) -> Charge:
        with self._lock:
            if idempotency and (record := self._idem.get(idempotency.key)):
                if record["fingerprint"] != idempotency.fingerprint:
                    raise IdempotencyConflictError("this Idempotency-Key was used for a different call")
                if record["status"] != "completed":
                    raise IdempotencyConflictError("a call with this Idempotency-Key is still running; retry shortly")
                raise IdempotentReplayError(record["result"])
            balance = self._balances.get(account_id, 0)
            if balance < amount:
                raise InsufficientCreditsError(balance, amount)
            charge = Charge(account_id, new_entry_id(), amount, tool, request_id, idempotency)
            self._apply(account_id, charge.entry_id, EntryKind.CHARGE, -amount, tool=tool, request_id=request_id)
            if idempotency:
                self._idem[idempotency.key] = {"fingerprint": idempotency.fingerprint, "status": "in_progress"}
            return charge

    def settle(self, charge: Charge, result: dict[str, Any]) -> None:
        if charge.idempotency:
            with self._lock:
                self._idem[charge.idempotency.key].update(status="completed", result=result)

    def refund(self, charge: Charge, reason: str) -> None:
        with self._lock:
            entry_id = refund_entry_id(charge)
            if entry_id in self._entries.get(charge.account_id, {}):
                return
            self._apply(
                charge.account_id,
                entry_id,
                EntryKind.REFUND,
                charge.amount,
                tool=charge.tool,
                request_id=charge.request_id,
                reason=reason,
            )
            if charge.idempotency:
                self._idem.pop(charge.idempotency.key, None)

    def grant(self, account_id: str, amount: int, reason: str) -> int:
        with self._lock:
            if self._balances.get(account_id, 0) + amount < 0:
                raise InsufficientCreditsError(self._balances.get(account_id, 0), -amount)
            self._apply(account_id, new_entry_id(), EntryKind.GRANT, amount, reason=reason)
            return self._balances[account_id]

    def balance(self, account_id: str) -> int:
        return self._balances.get(account_id, 0)

    def entries(self, account_id: str, limit: int = 20) -> list[LedgerEntry]:
        entries = self._entries.get(account_id, {})
        return [entries[k] for k in sorted(entries, reverse=True)[:limit]]

    def _apply(self, account_id: str, entry_id: str, kind: EntryKind, amount: int, **fields: str) -> None:
        self._balances[account_id] = self._balances.get(account_id, 0) + amount
        self._entries.setdefault(account_id, {})[entry_id] = LedgerEntry(
            account_id=account_id, entry_id=entry_id, kind=kind, amount=amount, created_at=now_iso(), **fields
        )
