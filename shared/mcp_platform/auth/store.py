"""What the router needs to know about a caller, and the store that knows it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True)
class ApiKeyRecord:
    key_hash: str
    account_id: str
    prefix: str
    created_at: str
    revoked: bool = False
    profile: str | None = None
    """A default connection profile in URL-query form (`profile=discover`, `services=geo,fetch`)."""


@dataclass(frozen=True)
class Account:
    account_id: str
    name: str
    services: frozenset[str] = field(default_factory=frozenset)
    rate_limit_per_minute: int | None = None
    """Overrides the deployment's default when set."""


class AccountStore(Protocol):
    """Accounts and their API keys. Balances live in the ledger, not here."""

    def get_key(self, key_hash: str) -> ApiKeyRecord | None: ...

    def put_key(self, record: ApiKeyRecord) -> None: ...

    def revoke_key(self, key_hash: str) -> bool:
        """Mark a key revoked; False if there is no such key."""
        ...

    def keys_of(self, account_id: str) -> list[ApiKeyRecord]: ...

    def get_account(self, account_id: str) -> Account | None: ...

    def create_account(self, account: Account) -> None:
        """Create the account record; raises `AccountExistsError` if the id is taken."""
        ...

    def set_services(self, account_id: str, services: frozenset[str]) -> None: ...


class AccountExistsError(Exception):
    """create_account for an id that already exists."""
