"""Which search provider is configured and what it still lacks: environment only, no secret, no HTTP.

Light enough for the router's /health and every status tool; `providers.py` builds the client.
"""

from __future__ import annotations

import os

from mcp_platform.storage.secrets import is_configured

PROVIDER_ENV = "SEARCH_PROVIDER"
KEY_ENV = "SEARCH_API_KEY_PARAMETER"
BASE_URL_ENV = "SEARCH_BASE_URL"
DEFAULT_BASE_URLS: dict[str, str | None] = {
    "serper": "https://google.serper.dev",
    "brave": "https://api.search.brave.com/res/v1",
    "searxng": None,  # an operator's own instance; public instances refuse API use
}
NEEDS_KEY = {"serper": True, "brave": True, "searxng": False}


def provider_name() -> str:
    return (os.environ.get(PROVIDER_ENV) or "serper").strip().lower()


def base_url() -> str | None:
    """The active provider's origin: `SEARCH_BASE_URL`, else its public default (SearXNG has none)."""
    configured = os.environ.get(BASE_URL_ENV, "").strip().rstrip("/")
    return configured or DEFAULT_BASE_URLS.get(provider_name())


def missing_settings() -> list[str]:
    """The search settings still missing: empty exactly when `provider_from_env()` can build a provider."""
    name = provider_name()
    if name not in DEFAULT_BASE_URLS:
        return [PROVIDER_ENV]
    missing = [KEY_ENV] if NEEDS_KEY[name] and not is_configured(KEY_ENV) else []
    if not base_url():
        missing.append(BASE_URL_ENV)
    return missing
