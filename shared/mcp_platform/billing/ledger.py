"""The ledger port: reserve before a call, refund a failed one, grant credits.

Every change of a balance writes a ledger entry in the same atomic step, so
the balance always equals the sum of the account's entries. A reservation is
a charge entry written before the service runs; a failed or waived call is
refunded with a second entry (never by deleting the first), and a refund is
keyed by its charge so retrying a refund cannot pay out twice.
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Protocol

IDEMPOTENCY_TTL_SECONDS = 24 * 3600


class EntryKind(StrEnum):
    GRANT = "grant"
    CHARGE = "charge"
    REFUND = "refund"


@dataclass(frozen=True)
class LedgerEntry:
    account_id: str
    entry_id: str
    kind: EntryKind
    amount: int
    """Signed: grants and refunds are positive, charges negative."""
    created_at: str
    tool: str = ""
    request_id: str = ""
    reason: str = ""

    def to_wire(self) -> dict[str, Any]:
        out: dict[str, Any] = {"entry_id": self.entry_id, "kind": str(self.kind), "amount": self.amount}
        out["created_at"] = self.created_at
        for name in ("tool", "request_id", "reason"):
            if value := getattr(self, name):
                out[name] = value
        return out


@dataclass(frozen=True)
class IdempotencyKey:
    """A client's `Idempotency-Key`, scoped to the account and bound to the exact call it was used for."""

    key: str
    """Storage key: a hash of account, header value and JSON-RPC id."""
    fingerprint: str
    """Hash of tool and arguments: the same key for a different call is an error, not a replay."""

    @classmethod
    def for_call(cls, account_id: str, header: str, rpc_id: Any, tool: str, arguments_json: bytes) -> IdempotencyKey:
        key = hashlib.sha256(f"{account_id}\x00{header}\x00{rpc_id!r}".encode()).hexdigest()
        fingerprint = hashlib.sha256(tool.encode() + b"\x00" + arguments_json).hexdigest()
        return cls(key=key, fingerprint=fingerprint)


@dataclass(frozen=True)
class Charge:
    """A reservation: credits already taken for one call, until settled or refunded."""

    account_id: str
    entry_id: str
    amount: int
    tool: str
    request_id: str
    idempotency: IdempotencyKey | None = None


class InsufficientCreditsError(Exception):
    def __init__(self, balance: int, price: int) -> None:
        super().__init__(f"insufficient credits: balance {balance}, price {price}")
        self.balance = balance
        self.price = price


class IdempotentReplayError(Exception):
    """The call was already made with this Idempotency-Key: here is its result, not charged again."""

    def __init__(self, result: dict[str, Any] | None) -> None:
        super().__init__("replayed")
        self.result = result


class IdempotencyConflictError(Exception):
    """The key is in use by a call still running, or was used for a different call."""


class Ledger(Protocol):
    def reserve(
        self, account_id: str, amount: int, *, tool: str, request_id: str, idempotency: IdempotencyKey | None = None
    ) -> Charge:
        """Take `amount` atomically, never below zero.

        Raises `InsufficientCreditsError`, or for a repeated Idempotency-Key
        `IdempotentReplayError` (with the stored result) / `IdempotencyConflictError`.
        """
        ...

    def settle(self, charge: Charge, result: dict[str, Any]) -> None:
        """Record the result of a successful idempotent call so a retry replays it (no-op otherwise)."""
        ...

    def refund(self, charge: Charge, reason: str) -> None:
        """Give a reservation back. Safe to call twice: the second call changes nothing."""
        ...

    def grant(self, account_id: str, amount: int, reason: str) -> int:
        """Add credits (positive) or take them back (negative, never below zero); returns the new balance."""
        ...

    def balance(self, account_id: str) -> int: ...

    def entries(self, account_id: str, limit: int = 20) -> list[LedgerEntry]:
        """The newest entries first."""
        ...


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def new_entry_id() -> str:
    """Time-sortable and unique: ISO timestamp, then randomness."""
    return f"{now_iso()}#{uuid.uuid4().hex[:12]}"


def refund_entry_id(charge: Charge) -> str:
    return f"{charge.entry_id}#refund"
