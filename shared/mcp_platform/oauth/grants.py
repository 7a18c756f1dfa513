"""Authorization codes, access and refresh tokens: their shapes, their stored (hashed) records, their store.

Every secret is 256 bits from `secrets` and stored only as its SHA-256, as API
keys are; a record's `expires_at` is also its DynamoDB TTL. A refresh token
belongs to a family (one consent of one client for one account): a refresh
token used twice means a copy leaked, and the whole family is revoked.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Protocol

ACCESS_PREFIX = "mcpat_"
REFRESH_PREFIX = "mcprt_"
CODE_PREFIX = "mcpac_"


def new_secret(prefix: str) -> str:
    return prefix + secrets.token_urlsafe(32)


def digest(secret: str) -> str:
    """The stored form of a code or token (256-bit random, so an unsalted hash is safe, as for keys)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def is_access_token(credential: str) -> bool:
    return credential.startswith(ACCESS_PREFIX) and len(credential) == len(ACCESS_PREFIX) + 43


@dataclass(frozen=True)
class Grant:
    """What one consent allows: whose account, which client, which scopes, for which resource."""

    account_id: str
    client_id: str
    scopes: tuple[str, ...]
    resource: str
    family_id: str


@dataclass(frozen=True)
class CodeRecord:
    grant: Grant
    redirect_uri: str
    redirect_uri_explicit: bool
    code_challenge: str
    expires_at: int


@dataclass(frozen=True)
class TokenRecord:
    grant: Grant
    expires_at: int


@dataclass(frozen=True)
class Family:
    """A connected app: one client's grant to one account, revoked as a whole."""

    family_id: str
    account_id: str
    client_id: str
    client_name: str
    scopes: tuple[str, ...]
    created_at: int
    expires_at: int
    revoked: bool = False


class RefreshReused(Exception):
    """A refresh token presented after it was already exchanged (its family is now revoked)."""


class GrantStore(Protocol):
    """Codes, tokens and families, keyed by the hash of their secret."""

    def put_code(self, code_hash: str, record: CodeRecord) -> None: ...

    def take_code(self, code_hash: str) -> CodeRecord | None:
        """The code's record, deleted in the same conditional write: a second take gets None."""
        ...

    def peek_code(self, code_hash: str) -> CodeRecord | None: ...

    def put_family(self, family: Family) -> None: ...

    def families_of(self, account_id: str) -> list[Family]: ...

    def revoke_family(self, family_id: str) -> None: ...

    def put_access(self, token_hash: str, record: TokenRecord) -> None: ...

    def get_access(self, token_hash: str) -> TokenRecord | None:
        """A live access token's record: None when unknown, revoked or its family revoked (expiry is the caller's)."""
        ...

    def put_refresh(self, token_hash: str, record: TokenRecord) -> None: ...

    def get_refresh(self, token_hash: str) -> TokenRecord | None: ...

    def use_refresh(self, token_hash: str) -> TokenRecord:
        """Mark a refresh token used (a conditional write); `RefreshReused` if it already was."""
        ...

    def revoke_token(self, token_hash: str) -> None:
        """Revoke the family of this access or refresh token; nothing for an unknown one."""
        ...

    def put_document(self, key: str, body: str, expires_at: int | None) -> None:
        """A JSON document under `key` (a registered client, a pending authorization request)."""
        ...

    def get_document(self, key: str) -> str | None: ...

    def take_document(self, key: str) -> str | None:
        """The document, deleted in the same conditional write (single use)."""
        ...
