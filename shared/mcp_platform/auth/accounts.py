"""Account administration: what the admin CLI and the local default's seeding do.

Plain logic over the `AccountStore` and `Ledger` ports, so it runs the same
against DynamoDB in AWS, moto locally, and the in-memory fakes in tests.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mcp_platform.auth.keys import display_prefix, generate_key, hash_key, is_well_formed
from mcp_platform.auth.signup import INVITE_PREFIX, Invite, SignupMode, generate_invite_code, invite_id
from mcp_platform.auth.store import Account, AccountStore, ApiKeyRecord
from mcp_platform.billing.ledger import Ledger, now_iso
from mcp_platform.runtime.observability import logger

if TYPE_CHECKING:
    from collections.abc import Callable

    from mcp_platform.auth.signup import SignupRequest, SignupStore


class AdminError(Exception):
    """A request the admin cannot carry out (unknown account, bad key…): shown to the operator as is."""


@dataclass
class AccountAdmin:
    store: AccountStore
    ledger: Ledger

    def create_account(
        self,
        name: str,
        services: frozenset[str],
        welcome_credits: int,
        account_id: str | None = None,
        rate_limit_per_minute: int | None = None,
    ) -> Account:
        """A new account with its approved services and the welcome grant (a ledger entry like any other);
        `rate_limit_per_minute` overrides the deployment's limit for this account only."""
        account = Account(account_id or new_account_id(), name, services, rate_limit_per_minute)
        self.store.create_account(account)
        self.welcome(account.account_id, welcome_credits)
        return account

    def welcome(self, account_id: str, credits: int) -> int:
        """Grant the welcome credits; returns the balance."""
        return self.ledger.grant(account_id, credits, "welcome credits") if credits else 0

    def issue_key(self, account_id: str, key: str | None = None, profile: str | None = None) -> str:
        """Store a new key's hash and return the key itself; it is never retrievable again.

        `profile` is the key's default connection profile in URL-query form (`profile=discover`).
        """
        self.account(account_id)
        key = key or generate_key()
        if not is_well_formed(key):
            raise AdminError("an API key is mcp_ followed by 43 URL-safe characters")
        if profile:
            _check_profile(profile)
        self.store.put_key(ApiKeyRecord(hash_key(key), account_id, display_prefix(key), now_iso(), profile=profile))
        return key

    def revoke_key(self, key_or_id: str) -> None:
        """Revoke by the key itself or by its key id (the hash `show` lists)."""
        key_id = hash_key(key_or_id) if is_well_formed(key_or_id) else key_or_id
        if not self.store.revoke_key(key_id):
            raise AdminError("no such key")

    def approve(self, account_id: str, services: frozenset[str], *, revoke: bool = False) -> frozenset[str]:
        current = self.account(account_id).services
        updated = current - services if revoke else current | services
        self.store.set_services(account_id, updated)
        return updated

    def grant(self, account_id: str, amount: int, reason: str) -> int:
        self.account(account_id)
        return self.ledger.grant(account_id, amount, reason)

    def show(self, account_id: str, entries: int = 20) -> dict[str, Any]:
        account = self.account(account_id)
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

    def account(self, account_id: str) -> Account:
        """The account, or `AdminError` naming the id."""
        account = self.store.get_account(account_id)
        if account is None:
            raise AdminError(f"no account {account_id!r}")
        return account


def new_account_id() -> str:
    return f"acct_{uuid.uuid4().hex[:16]}"


class SignupRefusedError(Exception):
    """Sign-up is closed, or needs an invite the request does not carry."""


@dataclass(frozen=True)
class Registration:
    account_id: str
    api_key: str
    balance: int
    services: frozenset[str]


@dataclass
class SignupDesk:
    """Self-service sign-up (`POST /api/auth/register`) and the invite codes `mcp-admin` hands out."""

    admin: AccountAdmin
    signups: SignupStore
    mode: SignupMode
    services: frozenset[str]
    """What a new account is approved for: every listed service."""
    welcome_credits: int
    clock: Callable[[], float] = time.time

    def register(self, request: SignupRequest) -> Registration:
        """A new agent account, its welcome credits and its key (returned once).

        Raises `SignupRefusedError` (mode), `EmailTakenError` (one account per email, also
        under concurrency: the store claims the email atomically) or `InviteRejectedError`.
        """
        if self.mode is SignupMode.CLOSED:
            raise SignupRefusedError("self-service sign-up is closed on this deployment; ask the operator for a key")
        invite = None
        if self.mode is SignupMode.INVITE:
            if not request.invite_code:
                raise SignupRefusedError("sign-up needs an invite code on this deployment (invite_code)")
            invite = invite_id(request.invite_code)
        account = Account(account_id=new_account_id(), name=request.email, services=self.services)
        self.signups.register(account, request.email, invite, int(self.clock()))
        try:
            balance = self.admin.welcome(account.account_id, self.welcome_credits)
            key = self.admin.issue_key(account.account_id)
        except Exception:
            # The account exists; its grant or key did not land. The operator can finish it by hand.
            logger.exception(
                "sign-up incomplete; finish with mcp-admin grant/issue-key", extra={"account_id": account.account_id}
            )
            raise
        return Registration(account.account_id, key, balance, self.services)

    def issue_invite(self, uses: int = 1, days: float | None = 7.0, note: str = "") -> tuple[str, Invite]:
        """A new invite code (shown once) good for `uses` sign-ups within `days` (None: no expiry)."""
        if uses < 1:
            raise AdminError("an invite is good for at least one sign-up")
        code = generate_invite_code()
        expires = int(self.clock() + days * 86400) if days is not None else None
        invite = Invite(invite_id(code), uses, expires, now_iso(), note)
        self.signups.put_invite(invite)
        return code, invite

    def revoke_invite(self, code_or_id: str) -> None:
        """Revoke by the code itself or by its invite id."""
        ident = invite_id(code_or_id) if code_or_id.startswith(INVITE_PREFIX) else code_or_id
        if not self.signups.revoke_invite(ident):
            raise AdminError("no such invite")


def _check_profile(profile: str) -> None:
    """A key's default profile must parse as the router will parse it, or every request with the key fails."""
    from mcp_platform.catalogue.profiles import parse_profile
    from mcp_platform.catalogue.registry import load_registry
    from mcp_platform.protocol.jsonrpc import JsonRpcError

    try:
        parse_profile(profile, load_registry())
    except JsonRpcError as exc:
        raise AdminError(f"profile {profile!r}: {exc.message}") from None
