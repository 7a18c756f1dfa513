"""search_web and search_news: provider results, web results cached, news never."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from mcp_platform.search.providers import SearchQuery, Vertical, search_provider
from mcp_platform.storage.table_cache import TableCache, cache_key
from search_service.cache import JsonCache
from search_service.settings import settings

if TYPE_CHECKING:
    from mcp_platform.contracts.search import SearchInput
    from mcp_platform.runtime.service import ServiceContext


def results_ttl() -> int:
    return settings().search_cache_ttl_seconds


@cache
def store() -> JsonCache:
    """The container's cache client (built once, reused while warm)."""
    return JsonCache(TableCache(settings().cache_table))


def search_web(arguments: SearchInput, ctx: ServiceContext) -> dict[str, Any]:
    return _search("web", arguments, ctx)


def search_news(arguments: SearchInput, ctx: ServiceContext) -> dict[str, Any]:
    return _search("news", arguments, ctx)


def _search(vertical: Vertical, arguments: SearchInput, ctx: ServiceContext) -> dict[str, Any]:
    query = SearchQuery.from_input(arguments)
    provider = search_provider(settings())
    key = cache_key("search", provider.name, vertical, query)
    if vertical == "web" and (hit := store().get(key)):
        return {**hit, "cached": True}
    found = provider.search(vertical, query, ctx.deadline_epoch)
    items = found["organic" if vertical == "web" else "news"]
    out = {"q": arguments.q, **found, "count": len(items), "provider": provider.name, "gl": query.gl, "hl": query.hl}
    if vertical == "web":
        store().put(key, out, results_ttl())
    return {**out, "cached": False}
