"""Which search provider and model are active, and which settings are missing — for status tools and /health.

Reads the environment only (no secret, no network), so it is free to call on every request.
Configured base URLs are reported as `configured`, never echoed: an operator's internal
addresses are not for callers.
"""

from __future__ import annotations

import os
from typing import Any

from mcp_platform.llm.base import BASE_URL_ENV as LLM_BASE_URL_ENV
from mcp_platform.llm.providers import llm_settings
from mcp_platform.search.settings import BASE_URL_ENV as SEARCH_BASE_URL_ENV
from mcp_platform.search.settings import missing_settings, provider_name


def _origin(env_name: str) -> str:
    return "configured" if os.environ.get(env_name, "").strip() else "public default"


def provider_status() -> dict[str, Any]:
    """`{search: {provider, base_url, missing}, llm: {provider, model, base_url, missing}, missing}`."""
    search_missing = missing_settings()
    llm = llm_settings()
    return {
        "search": {"provider": provider_name(), "base_url": _origin(SEARCH_BASE_URL_ENV), "missing": search_missing},
        "llm": {
            "provider": llm["provider"],
            "model": llm["model"],
            "base_url": _origin(LLM_BASE_URL_ENV),
            "missing": llm["missing"],
        },
        "missing": search_missing + llm["missing"],
    }


def research_is_live() -> bool:
    """Whether research can run live: a search provider and an LLM are both configured.

    Without them every research answer is a recorded run (`meta.mode` golden) or the fixed sample,
    both free, so the router prices such calls 0 and reserves nothing.
    """
    return not provider_status()["missing"]
