"""The MCP SDK's `OAuthAuthorizationServerProvider` over the platform's grant store.

The SDK's handlers do the protocol (request parsing, PKCE S256 verification, redirect URI
and expiry checks, error responses); this class decides and stores. What it adds to them:
- `authorize` refuses any `resource` other than this deployment's `/mcp` (RFC 8707) and parks
  the request for the consent page (`consent.py`), which issues the code;
- a code is taken with one conditional delete, so it works once;
- a refresh token is marked used with one conditional update; a second use revokes its family;
- every code and token is stored as its SHA-256 only.
"""

from __future__ import annotations

import secrets
import time
from typing import TYPE_CHECKING, Any

from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    AuthorizeError,
    RefreshToken,
    TokenError,
)
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

from mcp_auth.pending import PendingRequest, PendingRequests
from mcp_platform.oauth.grants import (
    ACCESS_PREFIX,
    CODE_PREFIX,
    REFRESH_PREFIX,
    CodeRecord,
    Family,
    Grant,
    RefreshReused,
    TokenRecord,
    digest,
    new_secret,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from mcp_auth.clients import ClientRegistry
    from mcp_auth.settings import AuthSettings
    from mcp_platform.oauth.grants import GrantStore

CONSENT_PATH = "/oauth/consent"


class GrantProvider:
    def __init__(
        self,
        settings: AuthSettings,
        clients: ClientRegistry,
        grants: GrantStore,
        pending: PendingRequests,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._settings = settings
        self._clients = clients
        self._grants = grants
        self._pending = pending
        self._clock = clock

    # -- clients

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        return self._clients.get(client_id)

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        self._clients.register(client_info)

    # -- authorization

    async def authorize(self, client: OAuthClientInformationFull, params: AuthorizationParams) -> str:
        if (params.resource or "").rstrip("/") != self._settings.resource:
            raise AuthorizeError("invalid_target", f"resource must be {self._settings.resource}")
        request_id = self._pending.park(PendingRequest.of(client, params))
        return f"{self._settings.issuer_url}{CONSENT_PATH}?request={request_id}"

    def issue_code(self, request: PendingRequest, account_id: str, scopes: list[str]) -> str:
        """After consent: a new connected app (family) and its single-use code; returns the code."""
        now = int(self._clock())
        family = Family(
            family_id="fam_" + secrets.token_urlsafe(12),
            account_id=account_id,
            client_id=request.client_id,
            client_name=request.client_name,
            scopes=tuple(scopes),
            created_at=now,
            expires_at=now + self._settings.refresh_token_seconds,
        )
        self._grants.put_family(family)
        code = new_secret(CODE_PREFIX)
        grant = Grant(account_id, request.client_id, tuple(scopes), self._settings.resource, family.family_id)
        record = CodeRecord(
            grant=grant,
            redirect_uri=request.redirect_uri,
            redirect_uri_explicit=request.redirect_uri_explicit,
            code_challenge=request.code_challenge,
            expires_at=now + self._settings.authorization_code_seconds,
        )
        self._grants.put_code(digest(code), record)
        return code

    async def load_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: str
    ) -> AuthorizationCode | None:
        record = self._grants.peek_code(digest(authorization_code))
        if record is None or record.grant.client_id != client.client_id:
            return None
        return AuthorizationCode(
            code=authorization_code,
            scopes=list(record.grant.scopes),
            expires_at=record.expires_at,
            client_id=record.grant.client_id,
            code_challenge=record.code_challenge,
            redirect_uri=record.redirect_uri,  # type: ignore[arg-type]
            redirect_uri_provided_explicitly=record.redirect_uri_explicit,
            resource=record.grant.resource,
            subject=record.grant.account_id,
        )

    async def exchange_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: AuthorizationCode
    ) -> OAuthToken:
        record = self._grants.take_code(digest(authorization_code.code))
        if record is None:
            raise TokenError("invalid_grant", "authorization code was already used")
        return self._issue(record.grant)

    # -- refresh

    async def load_refresh_token(self, client: OAuthClientInformationFull, refresh_token: str) -> RefreshToken | None:
        record = self._grants.get_refresh(digest(refresh_token))
        if record is None or record.grant.client_id != client.client_id:
            return None
        return RefreshToken(**_token_fields(refresh_token, record))

    async def exchange_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: RefreshToken, scopes: list[str]
    ) -> OAuthToken:
        try:
            record = self._grants.use_refresh(digest(refresh_token.token))
        except RefreshReused:
            raise TokenError("invalid_grant", "refresh token was already used; its grant is revoked") from None
        grant = record.grant
        narrowed = Grant(grant.account_id, grant.client_id, tuple(scopes), grant.resource, grant.family_id)
        return self._issue(narrowed)

    # -- access tokens and revocation

    async def load_access_token(self, token: str) -> AccessToken | None:
        record = self._grants.get_access(digest(token))
        if record is None or record.expires_at <= self._clock():
            return None
        return AccessToken(**_token_fields(token, record))

    async def revoke_token(self, token: AccessToken | RefreshToken) -> None:
        self._grants.revoke_token(digest(token.token))

    def _issue(self, grant: Grant) -> OAuthToken:
        now = int(self._clock())
        access, refresh = new_secret(ACCESS_PREFIX), new_secret(REFRESH_PREFIX)
        self._grants.put_access(digest(access), TokenRecord(grant, now + self._settings.access_token_seconds))
        self._grants.put_refresh(digest(refresh), TokenRecord(grant, now + self._settings.refresh_token_seconds))
        return OAuthToken(
            access_token=access,
            token_type="Bearer",
            expires_in=self._settings.access_token_seconds,
            scope=" ".join(grant.scopes),
            refresh_token=refresh,
        )


def _token_fields(secret: str, record: TokenRecord) -> dict[str, Any]:
    """What the SDK's AccessToken and RefreshToken models say about a stored token."""
    grant = record.grant
    return {
        "token": secret,
        "client_id": grant.client_id,
        "scopes": list(grant.scopes),
        "expires_at": record.expires_at,
        "resource": grant.resource,
        "subject": grant.account_id,
    }
