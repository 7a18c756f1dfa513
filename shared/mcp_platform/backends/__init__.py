"""Configured backend APIs (PubChem, RxNav, openFDA, DailyMed, GBIF, POWO, DSLD, ODS, ...).

Public API:

* `backend_client(name, settings)` → `BackendClient` with `get(path, params, what=, accept=, deadline=, ttl_s=)`
  and `post(path, body, ...)` → `BackendResponse(status, data, text, url, retrieved_at, from_cache)`.
* `BACKENDS` / `Backend`: each API's base-URL variable, default origin, rate, cache TTL, optional key.
  A calling function's settings are a `BackendSettings` declaring that variable as a field
  (`pubchem_base_url`), so its template block is checked for it.
* `provenance(response, record_url=None)` → `{source: {api, url, cached}, retrieved_at}`, the two fields
  every data result carries (schemas in `mcp_platform.contracts._data`).

Failures are `ToolError`s from `mcp_platform.outbound.upstream`: `not_found` naming what was looked up,
`upstream_unavailable` naming the backend. See /work/notes/backends-api.md for the guide.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcp_platform.backends.cache import ResponseCache
from mcp_platform.backends.catalog import BACKENDS, DAY, Backend
from mcp_platform.backends.client import (
    PLATFORM_AGENT,
    BackendClient,
    BackendResponse,
    backend_client,
    configured_key,
    configured_origin,
    reset_clients,
)
from mcp_platform.backends.limiter import PoliteLimiter

if TYPE_CHECKING:
    from mcp_platform.runtime.settings import BackendSettings

__all__ = [
    "BACKENDS",
    "DAY",
    "PLATFORM_AGENT",
    "Backend",
    "BackendClient",
    "BackendResponse",
    "PoliteLimiter",
    "ResponseCache",
    "backend_client",
    "configured_key",
    "configured_origin",
    "describe",
    "provenance",
    "reset_clients",
]


def provenance(response: BackendResponse, record_url: str | None = None) -> dict[str, Any]:
    """`{source: {api, url, cached}, retrieved_at}` for a result built from `response`.

    `url` is the record's public page when there is one (`record_url`), else the request URL;
    `retrieved_at` is when the backend produced the answer (for a cache hit, the original fetch).
    """
    return {
        "source": {"api": response.backend.label, "url": record_url or response.url, "cached": response.from_cache},
        "retrieved_at": response.retrieved_at,
    }


def describe(name: str, settings: BackendSettings) -> dict[str, Any]:
    """A configured backend as status tools report it, at the origin `settings` give it (no secret is read)."""
    backend = BACKENDS[name]
    info: dict[str, Any] = {
        "api": backend.label,
        "base_url": backend.base_url(configured_origin(backend, settings)),
        "base_url_env": backend.env,
        "rate_per_s": backend.rate_per_s,
        "cache_ttl_s": backend.cache_ttl_s,
    }
    if backend.key_env:
        info["key_configured"] = bool(configured_key(backend, settings).strip())
    return info
