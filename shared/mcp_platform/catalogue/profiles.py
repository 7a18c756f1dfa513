"""Connection profiles: which tools one connection lists and may call, chosen in its URL.

`/mcp?services=geo,fetch` and `/mcp?tools=qr_generate,qr_decode` narrow the
catalogue; `/mcp?profile=discover` lists only the two meta-tools
(`tools_search`, `tools_call`) and reaches the rest through them. A key may
carry a default profile in the same query form (`ApiKeyRecord.profile`); the
URL narrows it and never widens it. Clients that take only a URL can use all of
this: the profile is part of the URL.

The router applies profiles; the admin checks a key's default profile when it issues the key.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import parse_qs

from mcp_platform.protocol.jsonrpc import INVALID_REQUEST, JsonRpcError

if TYPE_CHECKING:
    from mcp_platform.catalogue.registry import Registry, ToolSpec

DISCOVER = "discover"
PROFILES = frozenset({DISCOVER})
"""Named profiles a URL may ask for with `?profile=`."""


@dataclass(frozen=True)
class Profile:
    """A connection's view of the catalogue; the empty profile is the whole catalogue, listed in full."""

    services: frozenset[str] | None = None
    """Only these services' tools; None: any service the account may use."""
    tools: frozenset[str] | None = None
    """Only these tools; None: any tool of the allowed services."""
    discover: bool = False
    """`tools/list` lists only the meta-tools; the allowed tools are found and called through them."""

    def allows(self, spec: ToolSpec) -> bool:
        """Whether this connection may call `spec` (the account's own rights are checked apart)."""
        return (self.services is None or spec.service in self.services) and (
            self.tools is None or spec.name in self.tools
        )

    def narrow(self, other: Profile) -> Profile:
        """What both allow: each restriction is intersected, and either asking for discover is enough."""
        services, tools = _meet(self.services, other.services), _meet(self.tools, other.tools)
        return Profile(services, tools, self.discover or other.discover)

    def describe(self) -> str:
        """The profile in its URL form, for messages."""
        limits = (("services", self.services), ("tools", self.tools))
        parts = [f"{key}={','.join(sorted(value))}" for key, value in limits if value is not None]
        if self.discover:
            parts.append(f"profile={DISCOVER}")
        return "&".join(parts) or "all tools"


ALL = Profile()


def parse_profile(query: str, registry: Registry) -> Profile:
    """The profile a URL query (or a key's stored default) asks for; -32600 naming what it does not know.

    Parameters other than `services`, `tools` and `profile` are left alone; a name the registry
    does not know is refused rather than silently yielding an empty catalogue.
    """
    fields = parse_qs(query, keep_blank_values=True)
    services = _names(fields.get("services"))
    tools = _names(fields.get("tools"))
    named = _names(fields.get("profile")) or frozenset()
    if unknown := sorted(named - PROFILES):
        raise JsonRpcError(INVALID_REQUEST, f"unknown profile {unknown[0]!r}: the profiles are {sorted(PROFILES)}")
    if services is not None and (unknown := sorted(services - set(registry.services))):
        raise JsonRpcError(INVALID_REQUEST, f"unknown service(s) in ?services=: {', '.join(unknown)}")
    if tools is not None and (unknown := sorted(name for name in tools if registry.get(name) is None)):
        raise JsonRpcError(INVALID_REQUEST, f"unknown tool(s) in ?tools=: {', '.join(unknown)}")
    return Profile(services, tools, DISCOVER in named)


def connection_profile(query: str, default: str | None, registry: Registry) -> Profile:
    """The profile of one request: the key's (or grant's) `default` narrowed by the URL's `query`."""
    requested = parse_profile(query, registry) if query else ALL
    return parse_profile(default, registry).narrow(requested) if default else requested


def _names(values: list[str] | None) -> frozenset[str] | None:
    """`["geo,fetch", "qr"]` (a parameter given once or repeated) → {geo, fetch, qr}; absent → None."""
    if values is None:
        return None
    return frozenset(name.strip() for value in values for name in value.split(",") if name.strip())


def _meet(a: frozenset[str] | None, b: frozenset[str] | None) -> frozenset[str] | None:
    if a is None:
        return b
    return a if b is None else a & b
