"""The ledger port: balances, grants and the immutable entries that always sum to them.

Every change of a balance writes a ledger entry, so the balance equals the sum
of the account's entries (plus, for the milliseconds between a charge and its
entry, the charge's journal on the account item: see `billing/lifecycle.py`).
A failed or waived call is refunded with a second entry (never by deleting the
first), keyed by its charge so a refund can never pay out twice.
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Protocol

IDEMPOTENCY_TTL_SECONDS = 24 * 3600
"""How long a call record (and so an Idempotency-Key) is kept."""


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
    call_id: str = ""
    """The call record a charge or refund belongs to (`billing/lifecycle.py`)."""
    balance_after: int | None = None
    """Charges only: the balance right after this charge, as its result reported it."""

    def to_wire(self) -> dict[str, Any]:
        out: dict[str, Any] = {"entry_id": self.entry_id, "kind": str(self.kind), "amount": self.amount}
        out["created_at"] = self.created_at
        for name in ("tool", "request_id", "reason", "call_id"):
            if value := getattr(self, name):
                out[name] = value
        if self.balance_after is not None:
            out["balance_after"] = self.balance_after
        return out


@dataclass(frozen=True)
class IdempotencyKey:
    """A client's `Idempotency-Key`, scoped to the account and bound to the exact call it was used for."""

    key: str
    """Storage key (the call id): a hash of account and scope."""
    fingerprint: str
    """Hash of tool and arguments: the same key for a different call is an error, not a replay."""

    @classmethod
    def for_call(cls, account_id: str, scope: str, tool: str, arguments_json: bytes) -> IdempotencyKey:
        """`scope` is the header value for a single request; batch members add their JSON-RPC id to it."""
        key = hashlib.sha256(f"{account_id}\x00{scope}".encode()).hexdigest()
        fingerprint = hashlib.sha256(tool.encode() + b"\x00" + arguments_json).hexdigest()
        return cls(key=key, fingerprint=fingerprint)


class InsufficientCreditsError(Exception):
    def __init__(self, balance: int, price: int) -> None:
        super().__init__(f"insufficient credits: balance {balance}, price {price}")
        self.balance = balance
        self.price = price


class UnknownAccountError(LookupError):
    """Credits can only be granted to an account that exists."""

    def __init__(self, account_id: str) -> None:
        super().__init__(f"no account {account_id!r}")
        self.account_id = account_id


class Ledger(Protocol):
    def grant(self, account_id: str, amount: int, reason: str) -> int:
        """Add credits (positive) or take them back (negative, never below zero); returns the new balance.

        Raises `UnknownAccountError` for an account that does not exist, and
        `InsufficientCreditsError` when a negative grant would go below zero.
        """
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


def refund_entry_id(charge_entry_id: str) -> str:
    """A refund's entry id is its charge's: writing it twice is impossible (conditional put)."""
    return f"{charge_entry_id}#refund"
