"""Who is calling: an API key or an OAuth access token, behind one `Authenticator`.

Both are looked up by hash with a short per-instance cache: a warm router answers
most requests without reading DynamoDB, and a revoked key or token stops working
within `key_cache_seconds` (60 s at most, by template bound). An access token
is refused once expired whatever the cache says, and unless it was issued for
this endpoint (RFC 8707: its `resource` is the `/mcp` URL).
"""

from __future__ import annotations

import base64
import binascii
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from mcp_platform.auth.keys import hash_key, is_well_formed
from mcp_platform.oauth.grants import digest, is_access_token
from mcp_platform.oauth.scopes import CREDITS_READ, services_of
from mcp_platform.runtime.memory_cache import MemoryCache

if TYPE_CHECKING:
    from collections.abc import Callable

    from mcp_platform.auth.store import Account, AccountStore
    from mcp_platform.oauth.grants import GrantStore

_NEGATIVE_TTL = 5.0
"""Unknown keys are remembered briefly too, so a flood of bad keys cannot hammer the table."""
_CACHED_LOOKUPS = 10_000


@dataclass(frozen=True)
class Principal:
    account: Account
    profile: str | None = None
    """A default connection profile in URL-query form (`profile=discover`); the URL narrows it, never widens it."""
    scopes: frozenset[str] | None = None
    """An access token's scopes; None for an API key, which may do whatever its account may."""
    client_id: str | None = None
    """The OAuth client an access token was issued to; None for an API key."""
    expires_at: int | None = None
    """When an access token stops working (epoch seconds); None for an API key."""
    resource: str | None = None
    """The endpoint an access token was issued for (RFC 8707); None for an API key."""

    @property
    def account_id(self) -> str:
        return self.account.account_id

    @property
    def services(self) -> frozenset[str]:
        """The services this caller may use: the account's, narrowed by a token's scopes."""
        if self.scopes is None:
            return self.account.services
        return self.account.services & services_of(self.scopes)

    @property
    def reads_credits(self) -> bool:
        return self.scopes is None or CREDITS_READ in self.scopes


class Authenticator(Protocol):
    def authenticate(self, credential: str | None, resource: str) -> Principal | None:
        """The caller behind a key, or a token issued for `resource` (this `/mcp` URL).

        None for a missing, malformed, unknown, expired or revoked credential, or a token for another resource.
        """
        ...


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
    """API keys (`mcp_…`), and access tokens (`mcpat_…`) when given the grant store."""

    def __init__(
        self,
        store: AccountStore,
        ttl: float,
        clock: Callable[[], float] = time.monotonic,
        *,
        grants: GrantStore | None = None,
        wall_clock: Callable[[], float] = time.time,
    ) -> None:
        self._store = store
        self._grants = grants
        self._wall_clock = wall_clock
        self._ttl = ttl
        self._keys: MemoryCache[str, Principal | None] = MemoryCache(_CACHED_LOOKUPS, clock)
        self._tokens: MemoryCache[str, Principal | None] = MemoryCache(_CACHED_LOOKUPS, clock)

    def authenticate(self, credential: str | None, resource: str = "") -> Principal | None:
        if not credential:
            return None
        if is_well_formed(credential):
            return self._keys.get_or_load(hash_key(credential), self._key_lookup, self._ttl_of)
        if self._grants is not None and is_access_token(credential):
            principal = self._tokens.get_or_load(digest(credential), self._token_lookup, self._ttl_of)
            if principal is None or (principal.expires_at or 0) <= self._wall_clock():
                return None
            return principal if principal.resource == resource.rstrip("/") else None
        return None

    def _ttl_of(self, principal: Principal | None) -> float:
        return self._ttl if principal else min(self._ttl, _NEGATIVE_TTL)

    def _key_lookup(self, key_hash: str) -> Principal | None:
        record = self._store.get_key(key_hash)
        if record is None or record.revoked:
            return None
        account = self._store.get_account(record.account_id)
        return Principal(account, profile=record.profile) if account else None

    def _token_lookup(self, token_hash: str) -> Principal | None:
        assert self._grants is not None
        record = self._grants.get_access(token_hash)
        if record is None:
            return None
        account = self._store.get_account(record.grant.account_id)
        if account is None:
            return None
        grant = record.grant
        return Principal(
            account,
            scopes=frozenset(grant.scopes),
            client_id=grant.client_id,
            expires_at=record.expires_at,
            resource=grant.resource.rstrip("/"),
        )
