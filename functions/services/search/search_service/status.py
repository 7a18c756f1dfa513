"""search_status: provider, locale defaults, cache TTLs, tools, and which settings are missing."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcp_platform.catalogue.registry import load_registry
from mcp_platform.outbound.provider_status import provider_status
from mcp_platform.search.providers import DEFAULT_GL, DEFAULT_HL, PROVIDERS
from search_service.pages import page_ttl
from search_service.results import results_ttl
from search_service.settings import settings

if TYPE_CHECKING:
    from mcp_platform.contracts._common import StatusInput
    from mcp_platform.runtime.service import ServiceContext


def search_status(_arguments: StatusInput, _ctx: ServiceContext) -> dict[str, Any]:
    """No network call and no secret read: only whether each setting is present."""
    backends = provider_status(settings())
    search, llm = backends["search"], backends["llm"]
    return {
        "ok": True,
        "configured": not backends["missing"],
        "provider": search["provider"],
        "search_base_url": search["base_url"],
        "providers_available": sorted(PROVIDERS),
        "default_locale": {"gl": DEFAULT_GL, "hl": DEFAULT_HL},
        "cache": {
            "web_results_ttl_s": results_ttl(),
            "pages_ttl_s": page_ttl(),
            "news": "never cached",
            "enabled": bool(settings().cache_table),
        },
        "summary_llm": {"provider": llm["provider"], "model": llm["model"], "base_url": llm["base_url"]},
        "missing_settings": backends["missing"],
        "tools": [spec.name for spec in load_registry(["search"]).for_service("search")],
    }
