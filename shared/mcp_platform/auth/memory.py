"""AccountStore in memory: for fast unit tests and the router benchmark."""

from __future__ import annotations

import dataclasses
import threading

from mcp_platform.auth.signup import EmailTakenError, Invite, InviteRejectedError
from mcp_platform.auth.store import Account, AccountExistsError, ApiKeyRecord


class MemoryAccountStore:
    def __init__(self) -> None:
        self._keys: dict[str, ApiKeyRecord] = {}
        self._accounts: dict[str, Account] = {}
        self._lock = threading.Lock()

    def get_key(self, key_hash: str) -> ApiKeyRecord | None:
        return self._keys.get(key_hash)

    def put_key(self, record: ApiKeyRecord) -> None:
        with self._lock:
            if record.key_hash in self._keys:
                raise ValueError("key exists")
            self._keys[record.key_hash] = record

    def revoke_key(self, key_hash: str) -> bool:
        with self._lock:
            record = self._keys.get(key_hash)
            if record is None:
                return False
            self._keys[key_hash] = dataclasses.replace(record, revoked=True)
            return True

    def keys_of(self, account_id: str) -> list[ApiKeyRecord]:
        return sorted((k for k in self._keys.values() if k.account_id == account_id), key=lambda r: r.created_at)

    def get_account(self, account_id: str) -> Account | None:
        return self._accounts.get(account_id)

    def create_account(self, account: Account) -> None:
        with self._lock:
            if account.account_id in self._accounts:
                raise AccountExistsError(account.account_id)
            self._accounts[account.account_id] = account

    def set_services(self, account_id: str, services: frozenset[str]) -> None:
        with self._lock:
            self._accounts[account_id] = dataclasses.replace(self._accounts[account_id], services=services)


class MemorySignupStore:
    """Email claims and invites beside a `MemoryAccountStore`, with the DynamoDB store's all-or-nothing rule."""

    def __init__(self, accounts: MemoryAccountStore) -> None:
        self._accounts = accounts
        self._emails: dict[str, str] = {}
        self._invites: dict[str, tuple[Invite, int]] = {}
        self._lock = threading.Lock()

    def register(self, account: Account, email: str, invite: str | None, now: int) -> None:
        with self._lock:
            if email in self._emails:
                raise EmailTakenError(email)
            held = self._invites.get(invite) if invite is not None else None
            if invite is not None and not _usable(held, now):
                raise InviteRejectedError(invite)
            self._accounts.create_account(account)
            self._emails[email] = account.account_id
            if invite is not None and held is not None:
                self._invites[invite] = (held[0], held[1] - 1)

    def put_invite(self, invite: Invite) -> None:
        with self._lock:
            self._invites[invite.invite_id] = (invite, invite.uses)

    def revoke_invite(self, invite_id: str) -> bool:
        with self._lock:
            return self._invites.pop(invite_id, None) is not None


def _usable(held: tuple[Invite, int] | None, now: int) -> bool:
    """An invite exists, has a use left and has not expired."""
    if held is None:
        return False
    invite, left = held
    return left >= 1 and (invite.expires_at is None or invite.expires_at > now)
