"""OAuth clients: registered ones (RFC 7591) and client ID metadata documents (an HTTPS URL as client_id).

A metadata document is fetched through the platform's SSRF guard (`mcp_platform.web.download`:
public addresses only, redirects re-checked, bytes and time capped), must name itself as
`client_id`, and is cached for an hour. Every client is public: PKCE proves the client at the
token endpoint, so no client secret is issued (RFC 7591 lets the server replace a requested
`token_endpoint_auth_method`), and none has to be stored.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import orjson
from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata
from pydantic import ValidationError

from mcp_platform.protocol.errors import ToolError
from mcp_platform.runtime.observability import logger
from mcp_platform.web.http import FetchLimits, download

if TYPE_CHECKING:
    from collections.abc import Callable

    from mcp_platform.oauth.grants import GrantStore

METADATA_CACHE_SECONDS = 3600
_METADATA_LIMITS = FetchLimits(max_bytes=64 * 1024, connect_timeout=3.0, total_timeout=5.0, max_redirects=0)


class ClientRegistry:
    def __init__(
        self,
        grants: GrantStore,
        scopes: list[str],
        fetch: Callable[[str], bytes] | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._grants = grants
        self._scope = " ".join(scopes)
        self._fetch = fetch or _download_json
        self._clock = clock

    def get(self, client_id: str) -> OAuthClientInformationFull | None:
        cached = self._grants.get_document(_key(client_id))
        if cached is not None:
            return OAuthClientInformationFull.model_validate_json(cached)
        if not client_id.startswith("https://"):
            return None
        client = self._from_metadata_document(client_id)
        if client is not None:
            expires = int(self._clock()) + METADATA_CACHE_SECONDS
            self._grants.put_document(_key(client_id), client.model_dump_json(), expires)
        return client

    def register(self, client: OAuthClientInformationFull) -> None:
        """Keep a dynamically registered client, made public (the response the client gets is this object).

        A client that names no scopes may ask for any of them; the person's consent narrows them.
        """
        client.scope = client.scope or self._scope
        client.token_endpoint_auth_method = "none"
        client.client_secret = None
        client.client_secret_expires_at = None
        self._grants.put_document(_key(client.client_id or ""), client.model_dump_json(), None)

    def _from_metadata_document(self, url: str) -> OAuthClientInformationFull | None:
        try:
            raw = orjson.loads(self._fetch(url))
            if not isinstance(raw, dict) or raw.get("client_id") != url:
                raise ValueError("the document does not name its own URL as client_id")
            metadata = OAuthClientMetadata.model_validate({k: v for k, v in raw.items() if k != "client_id"})
            return OAuthClientInformationFull.model_validate(
                {
                    **metadata.model_dump(),
                    "client_id": url,
                    "token_endpoint_auth_method": "none",
                    "scope": metadata.scope or self._scope,
                }
            )
        except (ToolError, ValidationError, ValueError) as exc:
            logger.info("client metadata document refused", extra={"client_id": url, "why": type(exc).__name__})
            return None


def _download_json(url: str) -> bytes:
    fetched = download(url, limits=_METADATA_LIMITS, accept="application/json")
    return fetched.body


def _key(client_id: str) -> str:
    return "client#" + client_id
