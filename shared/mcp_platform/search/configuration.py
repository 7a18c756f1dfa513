"""Which search provider a function's settings name and what they still lack: no secret read, no HTTP.

Light enough for the router's /health and every status tool; `providers.py` builds the client.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcp_platform.runtime.settings import SearchProviderSettings

PROVIDER_ENV = "SEARCH_PROVIDER"
KEY_ENV = "SEARCH_API_KEY_PARAMETER"
BASE_URL_ENV = "SEARCH_BASE_URL"
DEFAULT_BASE_URLS: dict[str, str | None] = {
    "serper": "https://google.serper.dev",
    "brave": "https://api.search.brave.com/res/v1",
    "searxng": None,  # an operator's own instance; public instances refuse API use
}
NEEDS_KEY = {"serper": True, "brave": True, "searxng": False}


def provider_name(settings: SearchProviderSettings) -> str:
    return settings.search_provider.strip().lower() or "serper"


def base_url(settings: SearchProviderSettings) -> str | None:
    """The active provider's origin: `SEARCH_BASE_URL`, else its public default (SearXNG has none)."""
    return settings.search_base_url.strip().rstrip("/") or DEFAULT_BASE_URLS.get(provider_name(settings))


def missing_settings(settings: SearchProviderSettings) -> list[str]:
    """The search settings still missing: empty exactly when `search_provider(settings)` can build a provider."""
    name = provider_name(settings)
    if name not in DEFAULT_BASE_URLS:
        return [PROVIDER_ENV]
    missing = [KEY_ENV] if NEEDS_KEY[name] and not settings.search_api_key_parameter.strip() else []
    if not base_url(settings):
        missing.append(BASE_URL_ENV)
    return missing
