"""API key authentication with a short per-instance cache.

A warm router answers most requests without reading DynamoDB; a revoked key
stops working within `key_cache_seconds` (60 s at most, by template bound).
"""

from __future__ import annotations

import base64
import binascii
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mcp_platform.auth.keys import hash_key, is_well_formed

if TYPE_CHECKING:
    from collections.abc import Callable

    from mcp_platform.auth.store import Account, AccountStore

_NEGATIVE_TTL = 5.0
"""Unknown keys are remembered briefly too, so a flood of bad keys cannot hammer the table."""


@dataclass(frozen=True)
class Principal:
    account: Account
    profile: str | None = None
    """A default connection profile in URL-query form (`profile=discover`); the URL narrows it, never widens it."""

    @property
    def account_id(self) -> str:
        return self.account.account_id


def extract_key(authorization: str | None, x_api_key: str | None) -> str | None:
    """The key from `Authorization: Bearer <key>`, `X-Api-Key: <key>`, or Basic auth with the key as password.

    Basic auth lets clients that take only a URL carry the key in it
    (`https://any:mcp_…@host/mcp`): HTTP clients turn URL credentials into Basic auth.
    """
    if authorization:
        scheme, _, token = authorization.partition(" ")
        scheme, token = scheme.lower(), token.strip()
        if scheme == "bearer" and token:
            return token
        if scheme == "basic" and token:
            try:
                return base64.b64decode(token, validate=True).decode().partition(":")[2] or None
            except (binascii.Error, UnicodeDecodeError):
                return None
    return x_api_key.strip() if x_api_key else None


class KeyAuthenticator:
    def __init__(self, store: AccountStore, ttl: float, clock: Callable[[], float] = time.monotonic) -> None:
        self._store = store
        self._ttl = ttl
        self._clock = clock
        self._cache: dict[str, tuple[float, Principal | None]] = {}
        self._lock = threading.Lock()

    def authenticate(self, key: str | None) -> Principal | None:
        """The caller behind `key`, or None for a missing, malformed, unknown or revoked key."""
        if not key or not is_well_formed(key):
            return None
        digest = hash_key(key)
        now = self._clock()
        cached = self._cache.get(digest)
        if cached and cached[0] > now:
            return cached[1]
        principal = self._lookup(digest)
        ttl = self._ttl if principal else min(self._ttl, _NEGATIVE_TTL)
        with self._lock:
            if len(self._cache) > 10_000:
                self._cache.clear()
            self._cache[digest] = (now + ttl, principal)
        return principal

    def _lookup(self, digest: str) -> Principal | None:
        record = self._store.get_key(digest)
        if record is None or record.revoked:
            return None
        account = self._store.get_account(record.account_id)
        return Principal(account, record.profile) if account else None
