"""search's settings: its template.yaml environment (and Globals), parsed once per container."""

from __future__ import annotations

from typing import ClassVar

from mcp_platform.runtime.settings import ProviderSettings, WebSettings, settings_of


class Settings(WebSettings, ProviderSettings):
    OPTIONAL_ENV: ClassVar[frozenset[str]] = frozenset({"search_cache_ttl_seconds", "page_cache_ttl_seconds"})

    cache_table: str = ""
    """The web cache table; empty turns the cache off."""
    search_cache_ttl_seconds: int = 6 * 3600
    page_cache_ttl_seconds: int = 3600


settings = settings_of(Settings)
