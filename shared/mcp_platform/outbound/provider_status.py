"""Which search provider and model are active, and which settings are missing — for status tools and /health.

Reads the function's settings only (no secret, no network), so it is free to call on every request.
Configured base URLs are reported as `configured`, never echoed: an operator's internal
addresses are not for callers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcp_platform.llm.providers import llm_status
from mcp_platform.search.configuration import missing_settings, provider_name

if TYPE_CHECKING:
    from mcp_platform.runtime.settings import ProviderSettings


def _origin(configured: str) -> str:
    return "configured" if configured.strip() else "public default"


def provider_status(settings: ProviderSettings) -> dict[str, Any]:
    """`{search: {provider, base_url, missing}, llm: {provider, model, base_url, missing}, missing}`."""
    search_missing = missing_settings(settings)
    llm = llm_status(settings)
    return {
        "search": {
            "provider": provider_name(settings),
            "base_url": _origin(settings.search_base_url),
            "missing": search_missing,
        },
        "llm": {
            "provider": llm["provider"],
            "model": llm["model"],
            "base_url": _origin(settings.llm_base_url),
            "missing": llm["missing"],
        },
        "missing": search_missing + llm["missing"],
    }


def providers_configured(settings: ProviderSettings) -> bool:
    """Whether research can run live: a search provider and an LLM are both configured.

    Without them every research answer is a recorded run (`meta.mode` golden) or the fixed sample,
    both free, so the router prices such calls 0 and reserves nothing (`ToolSpec.free_without_providers`).
    """
    return not provider_status(settings)["missing"]
