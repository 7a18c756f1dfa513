"""The authorization server as one Starlette app: the MCP SDK's OAuth routes, the consent page, the portal.

Why the SDK's handlers (`mcp.server.auth`) rather than Authlib or our own: they are the MCP
project's own implementation of exactly the profile MCP clients speak (authorization code
with PKCE S256 only, RFC 8414 metadata, RFC 7591 registration, RFC 7009 revocation, RFC 8707
resource indicators), kept in step with the spec by the same people who write the client SDK
our e2e tests use; Authlib would need its own glue for each of those. The SDK leaves storage
and the user-facing steps to a provider: `GrantProvider` stores in DynamoDB, `Consent` signs in.

The metadata document is the SDK's, plus what it does not say by itself: `iss` in the
authorization response (RFC 9207), client ID metadata documents, public clients only.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from mcp.server.auth.routes import build_metadata, cors_middleware, create_auth_routes
from mcp.server.auth.settings import ClientRegistrationOptions, RevocationOptions
from pydantic import AnyHttpUrl
from starlette.applications import Starlette
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from mcp_auth.consent import Consent
from mcp_auth.portal import PORTAL, AccountViews, Portal
from mcp_auth.provider import CONSENT_PATH, GrantProvider
from mcp_auth.sessions import Sessions
from mcp_platform.oauth.scopes import all_scopes

if TYPE_CHECKING:
    from collections.abc import Callable

    from starlette.requests import Request

    from mcp_auth.clients import ClientRegistry
    from mcp_auth.pending import PendingRequests
    from mcp_auth.settings import AuthSettings
    from mcp_platform.oauth.grants import GrantStore

METADATA_PATH = "/.well-known/oauth-authorization-server"


def auth_app(
    settings: AuthSettings,
    services: list[str],
    clients: ClientRegistry,
    grants: GrantStore,
    pending: PendingRequests,
    views: AccountViews,
    clock: Callable[[], float] = time.time,
) -> Starlette:
    provider = GrantProvider(settings, clients, grants, pending, clock)
    issuer = AnyHttpUrl(settings.issuer)
    registration = ClientRegistrationOptions(enabled=settings.dynamic_client_registration)
    revocation = RevocationOptions(enabled=True)
    scopes = all_scopes(services)
    sdk_routes = [
        route
        for route in create_auth_routes(provider, issuer, None, registration, revocation)
        if route.path != METADATA_PATH
    ]
    sdk_metadata = build_metadata(issuer, None, registration, revocation).model_dump(mode="json")
    metadata = _metadata(sdk_metadata, scopes)

    async def serve_metadata(_request: Request) -> Response:
        return JSONResponse(metadata, headers={"cache-control": "max-age=3600"})

    consent = Consent(settings, provider, pending, views.admin.store, views.email_codes)
    portal = Portal(views, Sessions(grants, clock), clock)
    return Starlette(
        routes=[
            Route(PORTAL, portal.home, methods=["GET"]),
            Route(f"{PORTAL}/sign-in", portal.sign_in, methods=["POST"]),
            Route(f"{PORTAL}/email-code", portal.send_code, methods=["POST"]),
            Route(f"{PORTAL}/sign-in/code", portal.sign_in_with_code, methods=["POST"]),
            Route(f"{PORTAL}/outbox", portal.outbox, methods=["GET"]),
            Route(f"{PORTAL}/sign-up", portal.sign_up, methods=["POST"]),
            Route(f"{PORTAL}/sign-out", portal.sign_out, methods=["POST"]),
            Route(f"{PORTAL}/keys", portal.create_key, methods=["POST"]),
            Route(f"{PORTAL}/keys/revoke", portal.revoke_key, methods=["POST"]),
            Route(f"{PORTAL}/apps/revoke", portal.revoke_app, methods=["POST"]),
            Route(f"{PORTAL}/ledger.csv", portal.ledger_csv, methods=["GET"]),
            # CORS as the SDK gives its own metadata route: browser-based clients read it cross-origin.
            Route(METADATA_PATH, cors_middleware(serve_metadata, ["GET", "OPTIONS"]), methods=["GET", "OPTIONS"]),
            *sdk_routes,
            Route(CONSENT_PATH, consent.show, methods=["GET"]),
            Route(CONSENT_PATH, consent.decide, methods=["POST"]),
        ]
    )


def _metadata(sdk: dict[str, Any], scopes: list[str]) -> dict[str, Any]:
    document = {key: value for key, value in sdk.items() if value is not None}
    document.update(
        {
            "scopes_supported": scopes,
            "token_endpoint_auth_methods_supported": ["none"],
            "authorization_response_iss_parameter_supported": True,
            "client_id_metadata_document_supported": True,
        }
    )
    if "revocation_endpoint" in document:
        document["revocation_endpoint_auth_methods_supported"] = ["none"]
    return document
