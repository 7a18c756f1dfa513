"""Configured backend APIs (PubChem, RxNav, openFDA, DailyMed, GBIF, POWO, DSLD, ODS, ...).

Public API:

* `backend_client(name)` → `BackendClient` with `get(path, params, what=, accept=, deadline=, ttl_s=)`
  and `post(path, body, ...)` → `BackendResponse(status, data, text, url, retrieved_at, from_cache)`.
* `BACKENDS` / `Backend`: each API's base-URL variable, default origin, rate, cache TTL, optional key.
* `provenance(response, record_url=None)` → `{source: {api, url, cached}, retrieved_at}`, the two fields
  every data result carries (schemas in `mcp_platform.contracts._data`).

Failures are `ToolError`s from `mcp_platform.upstream`: `not_found` naming what was looked up,
`upstream_unavailable` naming the backend. See /work/notes/backends-api.md for the guide.
"""

from __future__ import annotations

from typing import Any

from mcp_platform.backends.cache import TABLE_ENV, ResponseCache
from mcp_platform.backends.catalog import BACKENDS, DAY, Backend
from mcp_platform.backends.client import (
    PLATFORM_AGENT,
    BackendClient,
    BackendResponse,
    backend_client,
    reset_clients,
)
from mcp_platform.backends.limiter import PoliteLimiter

__all__ = [
    "BACKENDS",
    "DAY",
    "PLATFORM_AGENT",
    "TABLE_ENV",
    "Backend",
    "BackendClient",
    "BackendResponse",
    "PoliteLimiter",
    "ResponseCache",
    "backend_client",
    "describe",
    "provenance",
    "reset_clients",
    "shared_cache_table",
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


def shared_cache_table() -> str | None:
    """The DynamoDB table the container caches answers in (None: memory only)."""
    from mcp_platform.backends.client import shared_cache

    return shared_cache().table or None


def describe(name: str) -> dict[str, Any]:
    """A configured backend as status tools report it (no secret is read)."""
    from mcp_platform.secrets import is_configured

    backend = BACKENDS[name]
    info: dict[str, Any] = {
        "api": backend.label,
        "base_url": backend.base_url(),
        "base_url_env": backend.env,
        "rate_per_s": backend.rate_per_s,
        "cache_ttl_s": backend.cache_ttl_s,
    }
    if backend.key_env:
        info["key_configured"] = is_configured(backend.key_env)
    return info
