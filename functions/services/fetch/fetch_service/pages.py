"""The fetch tools: one page through `mcp_platform.web.fetch_page`, and the service's limits."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fetch_service.settings import settings
from mcp_platform.web import EXTRACTOR, FetchLimits, extractor_version, fetch_page, paginate, user_agent

if TYPE_CHECKING:
    from mcp_platform.contracts._common import StatusInput
    from mcp_platform.contracts.fetch import FetchInput
    from mcp_platform.runtime.service import ServiceContext


def fetch(arguments: FetchInput, ctx: ServiceContext) -> dict[str, Any]:
    """The page's main content as markdown (or raw), windowed by start_index/max_length."""
    limits = FetchLimits.of(settings()).within(ctx.seconds_left() - 2.0)
    page = fetch_page(arguments.url, raw=arguments.raw, limits=limits)
    window = paginate(page.content, start_index=arguments.start_index, max_length=arguments.max_length)
    return {
        "url": page.url,
        "title": page.title,
        **window,
        "final_url": page.final_url,
        "status": page.status,
        "content_type": page.content_type,
        "kind": page.kind,
    }


def fetch_status(_arguments: StatusInput, _ctx: ServiceContext) -> dict[str, Any]:
    """Health and limits; no network call."""
    limits = FetchLimits.of(settings())
    return {
        "ok": True,
        "limits": {
            "max_bytes": limits.max_bytes,
            "connect_timeout_s": limits.connect_timeout,
            "total_timeout_s": limits.total_timeout,
            "max_redirects": limits.max_redirects,
            "max_length": 1_000_000,
        },
        "user_agent": user_agent(limits.contact_url),
        "robots_txt": "honoured (RFC 9309)",
        "extractor": EXTRACTOR,
        "extractor_version": extractor_version(),
    }
