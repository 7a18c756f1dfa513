"""Agent self-service sign-up: who may register, with what, and the store that keeps one account per email.

An agent posts `{email, account_type?, invite_code?}` and gets an
account with the welcome credits, every listed service approved and an API key
shown once. The deployment chooses how open that is (`SignupMode`); invite
codes are issued and revoked by `mcp-admin` and stored only as hashes, like keys.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Literal, Protocol

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

if TYPE_CHECKING:
    from mcp_platform.auth.store import Account

INVITE_PREFIX = "inv_"
_EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s]+\.[^@\s.]{2,}$")


class SignupMode(StrEnum):
    OPEN = "open"
    """Anyone may register (local development, or behind a trusted edge)."""
    INVITE = "invite"
    """Registration needs an invite code issued by `mcp-admin invite create`."""
    CLOSED = "closed"
    """No self-service sign-up; operators create accounts with `mcp-admin create-account`."""


def normalise_email(value: str) -> str:
    """Trimmed and lower-cased: `Ada@Example.org` and `ada@example.org ` are one account."""
    email = value.strip().lower()
    if not _EMAIL.match(email):
        raise ValueError("not an email address (name@domain.tld)")
    return email


class SignupRequest(BaseModel):
    """The body of `POST /api/auth/register`."""

    model_config = ConfigDict(extra="forbid")

    email: Annotated[str, Field(max_length=254), AfterValidator(normalise_email)]
    account_type: Literal["agent"] = "agent"
    """Optional: every self-service account is an agent's (the only value; kept so old clients still work)."""
    invite_code: str | None = Field(default=None, min_length=1, max_length=100)


@dataclass(frozen=True)
class Invite:
    invite_id: str
    """SHA-256 of the code: what is stored, and what `mcp-admin invite revoke` accepts besides the code."""
    uses: int
    expires_at: int | None
    """Epoch second after which the code is refused (and DynamoDB's TTL removes it)."""
    created_at: str
    note: str = ""


def generate_invite_code() -> str:
    return INVITE_PREFIX + secrets.token_urlsafe(18)


def invite_id(code: str) -> str:
    """The stored form of an invite code (codes are random, so an unsalted hash is enough)."""
    return hashlib.sha256(code.strip().encode()).hexdigest()


class EmailTakenError(Exception):
    """An account already exists for this email."""


class InviteRejectedError(Exception):
    """The invite code is unknown, used up, revoked or expired."""


class SignupStore(Protocol):
    """Claims an email and creates its account in one atomic step; keeps invite codes."""

    def register(self, account: Account, email: str, invite: str | None, now: int) -> None:
        """Create `account` for `email`, consuming one use of invite `invite` (an invite id) when given.

        All or nothing: raises `EmailTakenError` or `InviteRejectedError` and then writes nothing.
        """
        ...

    def put_invite(self, invite: Invite) -> None: ...

    def revoke_invite(self, invite_id: str) -> bool:
        """Delete an invite; False if there is no such invite."""
        ...
