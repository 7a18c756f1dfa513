"""The router as an OAuth protected resource (RFC 9728): its metadata and its 401 challenge.

The resource is this deployment's `/mcp` URL: `PUBLIC_URL` when set, else the
scheme-less Host the request came to, over HTTPS (API Gateway serves only HTTPS).
Its authorization server is the same origin unless `AUTHORIZATION_SERVER_URL` says otherwise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcp_platform.oauth.scopes import all_scopes

if TYPE_CHECKING:
    from mcp_router.http import HttpRequest
    from mcp_router.settings import RouterSettings

METADATA_PATH = "/.well-known/oauth-protected-resource"
METADATA_PATHS = (METADATA_PATH, METADATA_PATH + "/mcp")
"""RFC 9728 §3.1 inserts the well-known segment before the resource's path; the root form serves older clients."""
METADATA_CORS = {
    "access-control-allow-origin": "*",
    "access-control-allow-methods": "GET, OPTIONS",
    "access-control-allow-headers": "mcp-protocol-version",
}


class ProtectedResource:
    def __init__(self, settings: RouterSettings, services: list[str]) -> None:
        self._settings = settings
        self._scopes = all_scopes(services)

    def origin(self, request: HttpRequest) -> str:
        return self._settings.public_url or f"https://{request.header('host') or 'localhost'}"

    def resource(self, request: HttpRequest) -> str:
        """The `/mcp` URL a token must have been issued for (RFC 8707 audience)."""
        return self.origin(request) + "/mcp"

    def metadata(self, request: HttpRequest) -> dict[str, Any]:
        return {
            "resource": self.resource(request),
            # The issuer as the authorization server's metadata spells it (a bare origin with its `/`).
            "authorization_servers": [self._settings.authorization_server_url or self.origin(request) + "/"],
            "scopes_supported": self._scopes,
            "bearer_methods_supported": ["header"],
            "resource_name": self._settings.server_name,
        }

    def challenge(self, request: HttpRequest, credential_sent: bool) -> str:
        """`WWW-Authenticate` for a 401: where the metadata is, and `invalid_token` when a credential was refused."""
        parts = [f'resource_metadata="{self.origin(request)}{METADATA_PATH}/mcp"']
        if credential_sent:
            parts.append('error="invalid_token"')
        return "Bearer " + ", ".join(parts)
