"""Web search providers (Serper-style Google results, Brave, SearXNG) behind one interface.

Shared by the search service (search_web, search_news) and research (its live searcher):

    >>> provider = provider_from_env()      # SEARCH_PROVIDER, key via SEARCH_API_KEY_PARAMETER
    >>> found = provider.search("web", SearchQuery(q="budapest tram", num=5))
    >>> found["organic"][0]["link"]

Needs httpx (the common layer lists it) and the key from SSM / Secrets Manager (`mcp_platform.storage.secrets`).
"""

from __future__ import annotations

from mcp_platform.search.providers import (
    DEFAULT_GL,
    DEFAULT_HL,
    PROVIDERS,
    SearchProvider,
    SearchQuery,
    Vertical,
    provider_from_env,
)
from mcp_platform.search.settings import BASE_URL_ENV, KEY_ENV, PROVIDER_ENV, missing_settings, provider_name

__all__ = [
    "BASE_URL_ENV",
    "DEFAULT_GL",
    "DEFAULT_HL",
    "KEY_ENV",
    "PROVIDERS",
    "PROVIDER_ENV",
    "SearchProvider",
    "SearchQuery",
    "Vertical",
    "missing_settings",
    "provider_from_env",
    "provider_name",
]
