"""How clients and registries find this server: the Server Card, the MCP Catalog, `server.json`, service icons.

All generated from the registry and the deployment's settings, so none of it
can drift from what `/.well-known/mcp` and `tools/list` say:

- Server Card (the Server Card extension, SEP-2127): served at
  `<streamable-http-url>/server-card` (`/mcp/server-card`) as
  `application/mcp-server-card+json`, the location the extension reserves;
  `/.well-known/mcp/catalog.json` lists it for domain-level discovery.
- MCP Registry `server.json`: the same identity with `remotes` for a deployed
  stack, one remote per documented connection profile (`scripts/server_json.py`).
- Icons: one small SVG per service at `/icons/<service>.svg`, named in each
  tool's `icons` (protocol 2025-11-25) when the deployment knows its public URL.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from mcp_platform.protocol.mcp import LEGACY_VERSIONS, MODERN_VERSIONS

if TYPE_CHECKING:
    from mcp_platform.catalogue.registry import Registry

CARD_SCHEMA = "https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json"
SERVER_JSON_SCHEMA = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"
CARD_MEDIA_TYPE = "application/mcp-server-card+json"
CARD_PATH = "/mcp/server-card"
CATALOG_PATH = "/.well-known/mcp/catalog.json"
ICON_PREFIX = "/icons/"
PLATFORM_ICON = "platform"
"""The icon of the server itself and of the router's own tools (tools_search, tools_call)."""
DESCRIPTION = "Pay-per-call tools: geo, web search and fetch, documents, images, QR, voice, checks, health data."
"""What the server does, in the card's 100 characters."""
PROFILES = {
    "": "Every tool the key may use, listed in full.",
    "?profile=discover": "Two meta-tools (tools_search, tools_call) reach every tool; tools/list stays under 4 KB.",
    "?services={services}": "Only the named services' tools, e.g. ?services=geo,fetch.",
}
"""The documented connection profiles (`mcp_router/profiles.py`), as URL suffixes."""
AUTH_HEADER = {
    "name": "Authorization",
    "description": "An API key as a bearer token: Bearer mcp_…",
    "isRequired": True,
    "isSecret": True,
}


def server_name(base_url: str, server: str) -> str:
    """Reverse-DNS identity from the public URL's host: https://api.example.com → com.example.api/<server>."""
    host = urlsplit(base_url).hostname or "localhost"
    return f"{'.'.join(reversed(host.split('.')))}/{server}"


def server_card(base_url: str, server: str, version: str) -> dict[str, Any]:
    """The Server Card: identity, the streamable-HTTP remote and the protocol versions it speaks."""
    return {
        "$schema": CARD_SCHEMA,
        "name": server_name(base_url, server),
        "version": version,
        "title": server,
        "description": DESCRIPTION,
        "websiteUrl": f"{base_url}/llms.txt",
        "icons": [icon(base_url, PLATFORM_ICON)],
        "remotes": [
            {
                "type": "streamable-http",
                "url": f"{base_url}/mcp",
                "headers": [AUTH_HEADER],
                "supportedProtocolVersions": protocol_versions(),
            }
        ],
    }


def catalog(base_url: str, server: str) -> dict[str, Any]:
    """`/.well-known/mcp/catalog.json`: the one server of this domain and where its card is."""
    host = urlsplit(base_url).hostname or "localhost"
    return {
        "specVersion": "draft",
        "entries": [
            {
                "identifier": f"urn:air:{host}:{server}",
                "displayName": server,
                "type": CARD_MEDIA_TYPE,
                "url": f"{base_url}{CARD_PATH}",
            }
        ],
    }


def registry_server_json(registry: Registry, base_url: str, server: str, version: str) -> dict[str, Any]:
    """An MCP Registry `server.json`: one remote per documented profile, the services in publisher metadata."""
    remotes: list[dict[str, Any]] = []
    for suffix in PROFILES:
        remote: dict[str, Any] = {"type": "streamable-http", "url": f"{base_url}/mcp{suffix}", "headers": [AUTH_HEADER]}
        if "{services}" in suffix:
            remote["variables"] = {
                "services": {
                    "description": f"Comma-separated services to connect to, of: {', '.join(registry.services)}.",
                    "isRequired": True,
                    "default": "geo,fetch",
                }
            }
        remotes.append(remote)
    return {
        "$schema": SERVER_JSON_SCHEMA,
        "name": server_name(base_url, server),
        "title": server,
        "description": DESCRIPTION,
        "version": version,
        "websiteUrl": f"{base_url}/llms.txt",
        "remotes": remotes,
        "_meta": {
            "io.modelcontextprotocol.registry/publisher-provided": {
                "profiles": [
                    {"url": f"{base_url}/mcp{suffix}", "description": text} for suffix, text in PROFILES.items()
                ],
                "services": {s: len(registry.for_service(s)) for s in registry.services},
            }
        },
    }


def protocol_versions() -> list[str]:
    """Every protocol version the router speaks, oldest first (as `/.well-known/mcp` lists them)."""
    return [*LEGACY_VERSIONS, *MODERN_VERSIONS]


def icon(base_url: str, service: str) -> dict[str, Any]:
    """A tool's (or the server's) `icons` entry: the service's SVG, served by the platform."""
    return {"src": f"{base_url}{ICON_PREFIX}{service}.svg", "mimeType": "image/svg+xml", "sizes": ["any"]}


def icon_svg(service: str) -> str:
    """A service's icon: its first two letters on a colour of its own (about 250 bytes, no external assets)."""
    hue = hashlib.sha256(service.encode()).digest()[0] * 360 // 256
    label = service[:2].capitalize()
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
        f'<rect width="32" height="32" rx="7" fill="hsl({hue},55%,42%)"/>'
        '<text x="16" y="21" font-family="sans-serif" font-size="14" font-weight="bold" '
        f'text-anchor="middle" fill="#fff">{label}</text></svg>'
    )
