"""Web search providers (Serper-style Google results, Brave, SearXNG) behind one interface.

Shared by the search service (search_web, search_news) and research (its live searcher):

    >>> from mcp_platform.search.providers import SearchQuery, search_provider
    >>> provider = search_provider(settings())  # SEARCH_PROVIDER, key via SEARCH_API_KEY_PARAMETER
    >>> found = provider.search("web", SearchQuery(q="budapest tram", num=5))
    >>> found["organic"][0]["link"]

`configuration` says which provider a function's settings name and what they lack, with no HTTP
stack: the router's /health and its pricing import it at init, so this package imports nothing
itself. `providers` builds the clients (httpx, the backend client); the key comes from SSM /
Secrets Manager (`mcp_platform.storage.secrets`).
"""
