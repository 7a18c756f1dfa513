"""Account administration: what the admin CLI and the local default's seeding do.

Plain logic over the `AccountStore` and `Ledger` ports, so it runs the same
against DynamoDB in AWS, moto locally, and the in-memory fakes in tests.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from mcp_platform.auth.keys import display_prefix, generate_key, hash_key, is_well_formed
from mcp_platform.auth.store import Account, AccountStore, ApiKeyRecord
from mcp_platform.billing.ledger import Ledger, now_iso


class AdminError(Exception):
    """A request the admin cannot carry out (unknown account, bad key…): shown to the operator as is."""


@dataclass
class AccountAdmin:
    store: AccountStore
    ledger: Ledger

    def create_account(
        self, name: str, services: frozenset[str], welcome_credits: int, account_id: str | None = None
    ) -> Account:
        """A new account with its approved services and the welcome grant (a ledger entry like any other)."""
        account = Account(account_id=account_id or f"acct_{uuid.uuid4().hex[:16]}", name=name, services=services)
        self.store.create_account(account)
        if welcome_credits:
            self.ledger.grant(account.account_id, welcome_credits, "welcome credits")
        return account

    def issue_key(self, account_id: str, key: str | None = None) -> str:
        """Store a new key's hash and return the key itself; it is never retrievable again."""
        self._account(account_id)
        key = key or generate_key()
        if not is_well_formed(key):
            raise AdminError("an API key is mcp_ followed by 43 URL-safe characters")
        self.store.put_key(ApiKeyRecord(hash_key(key), account_id, display_prefix(key), now_iso()))
        return key

    def revoke_key(self, key_or_id: str) -> None:
        """Revoke by the key itself or by its key id (the hash `show` lists)."""
        key_id = hash_key(key_or_id) if is_well_formed(key_or_id) else key_or_id
        if not self.store.revoke_key(key_id):
            raise AdminError("no such key")

    def approve(self, account_id: str, services: frozenset[str], *, revoke: bool = False) -> frozenset[str]:
        current = self._account(account_id).services
        updated = current - services if revoke else current | services
        self.store.set_services(account_id, updated)
        return updated

    def grant(self, account_id: str, amount: int, reason: str) -> int:
        self._account(account_id)
        return self.ledger.grant(account_id, amount, reason)

    def show(self, account_id: str, entries: int = 20) -> dict[str, Any]:
        account = self._account(account_id)
        return {
            "account_id": account.account_id,
            "name": account.name,
            "services": sorted(account.services),
            "balance": self.ledger.balance(account_id),
            "keys": [
                {"key_id": k.key_hash, "prefix": k.prefix, "created_at": k.created_at, "revoked": k.revoked}
                for k in self.store.keys_of(account_id)
            ],
            "ledger": [e.to_wire() for e in self.ledger.entries(account_id, entries)],
        }

    def _account(self, account_id: str) -> Account:
        account = self.store.get_account(account_id)
        if account is None:
            raise AdminError(f"no account {account_id!r}")
        return account
