"""The authorization server's template environment, parsed once per container."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import AnyHttpUrl, field_validator

from mcp_platform.auth.signup import SignupMode
from mcp_platform.runtime.settings import LedgerSettings


class AuthSettings(LedgerSettings):
    OPTIONAL_ENV: ClassVar[frozenset[str]] = frozenset({"server_name", "sign_in_outbox"})

    api_keys_table: str = ""
    oauth_table: str = ""
    signups_table: str = ""
    """Where an email address finds its account (sign-in by email code)."""
    sign_in_email_from: str = ""
    """The SES identity sign-in codes come from (the template's EmailFromAddress); empty: none are sent."""
    sign_in_outbox: Literal["ses", "local"] = "ses"
    """`local` (make dev): codes are printed and listed at /account/outbox instead of sent."""
    signup_mode: SignupMode = SignupMode.INVITE
    """Whether the portal offers sign-up (open, with an invite code, or closed), as POST /api/auth/register."""
    welcome_credits: int = 100
    rate_limit_table: str = ""
    signups_per_ip_per_hour: int = 5
    issuer_url: str = ""
    """This deployment's origin: the issuer, and the origin of the `/mcp` resource tokens are bound to."""
    dynamic_client_registration: bool = True
    """RFC 7591 registration (most MCP clients still need it); client ID metadata documents work either way."""
    authorization_code_seconds: int = 300
    access_token_seconds: int = 3600
    refresh_token_seconds: int = 30 * 86400
    server_name: str = "mcp-platform"

    @field_validator("issuer_url")
    @classmethod
    def _no_trailing_slash(cls, value: str) -> str:
        return value.rstrip("/")

    @property
    def issuer(self) -> str:
        """The issuer as metadata and `iss` spell it: a URL as pydantic renders it (a bare origin gains `/`).

        The SDK's client compares `iss` with `str(OAuthMetadata.issuer)`, which always has that form,
        so the form is the one every document here uses (RFC 9207 compares strings exactly).
        """
        return str(AnyHttpUrl(self.issuer_url))

    @property
    def resource(self) -> str:
        """The one resource this server issues tokens for (RFC 8707): the router's `/mcp`."""
        return self.issuer_url + "/mcp"
