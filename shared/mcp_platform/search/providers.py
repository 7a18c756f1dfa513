"""Search providers behind one interface: Serper-style Google results (default) and Brave Search.

Shared by the search service and research (its live searcher), so both call the same code.

`SEARCH_PROVIDER` picks one (serper | brave); its API key is read from the parameter named by
`SEARCH_API_KEY_PARAMETER`. Both return the seed 003 shapes: organic[]/news[] items with title,
link, snippet, kind (html|pdf) and position (news: date, source), plus answer_box and
knowledge_graph when the provider gives them, and q_effective (the query actually sent).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol
from urllib.parse import urlsplit

import httpx

from mcp_platform.errors import ErrorCode, ToolError
from mcp_platform.secrets import is_configured, secret_from_env

if TYPE_CHECKING:
    from mcp_platform.contracts.search import SearchInput

Vertical = Literal["web", "news"]
PROVIDER_ENV = "SEARCH_PROVIDER"
KEY_ENV = "SEARCH_API_KEY_PARAMETER"
DEFAULT_GL, DEFAULT_HL = "us", "en"
_TAGS = re.compile(r"<[^>]+>")


@dataclass(frozen=True)
class SearchQuery:
    """A validated search request, locale defaults applied."""

    q: str
    num: int
    gl: str = DEFAULT_GL
    hl: str = DEFAULT_HL
    tbs: str | None = None
    sites: tuple[str, ...] = ()
    filetype: str | None = None
    after: str | None = None
    before: str | None = None

    @classmethod
    def from_input(cls, arguments: SearchInput) -> SearchQuery:
        sites = arguments.site if isinstance(arguments.site, list) else ()
        return cls(
            q=arguments.q,
            num=arguments.num,
            gl=arguments.gl or DEFAULT_GL,
            hl=arguments.hl or DEFAULT_HL,
            tbs=arguments.tbs,
            sites=tuple(sites),
            filetype=arguments.filetype,
            after=arguments.after,
            before=arguments.before,
        )

    def with_operators(self, *, dates: bool = True) -> str:
        """q plus Google operators: `(site:a OR site:b) filetype:pdf after:… before:…`."""
        parts = [self.q]
        if len(self.sites) == 1:
            parts.append(f"site:{self.sites[0]}")
        elif self.sites:
            parts.append("(" + " OR ".join(f"site:{s}" for s in self.sites) + ")")
        if self.filetype:
            parts.append(f"filetype:{self.filetype}")
        if dates and self.after:
            parts.append(f"after:{self.after}")
        if dates and self.before:
            parts.append(f"before:{self.before}")
        return " ".join(parts)


class SearchProvider(Protocol):
    name: str

    def search(self, vertical: Vertical, query: SearchQuery) -> dict[str, Any]:
        """`{q_effective, organic|news: [...], answer_box?, knowledge_graph?}`; raises `ToolError`."""
        ...


def link_kind(link: str) -> str:
    """`pdf` when the link's path ends in .pdf, else `html` (what search_fetch can open)."""
    return "pdf" if urlsplit(link).path.lower().endswith(".pdf") else "html"


def _clean(text: Any) -> str:
    return _TAGS.sub("", str(text or "")).strip()


class SerperProvider:
    """Serper-style Google results API: POST /search or /news with `X-API-KEY`."""

    name = "serper"
    base_url = "https://google.serper.dev"

    def __init__(self, api_key: str, client: httpx.Client) -> None:
        self._key = api_key
        self._client = client

    def search(self, vertical: Vertical, query: SearchQuery) -> dict[str, Any]:
        q_effective = query.with_operators()
        body: dict[str, Any] = {"q": q_effective, "num": query.num, "gl": query.gl, "hl": query.hl}
        if query.tbs:
            body["tbs"] = query.tbs
        endpoint = "/search" if vertical == "web" else "/news"
        payload = _post_json(
            self._client, "POST", self.base_url + endpoint, self.name, json=body, headers={"X-API-KEY": self._key}
        )
        out: dict[str, Any] = {"q_effective": q_effective}
        if vertical == "web":
            out["organic"] = [_item(r, i) for i, r in enumerate(payload.get("organic") or [], 1)][: query.num]
            if box := payload.get("answerBox"):
                out["answer_box"] = box
            if graph := payload.get("knowledgeGraph"):
                out["knowledge_graph"] = graph
        else:
            out["news"] = [
                {**_item(r, i), "date": str(r.get("date", "")), "source": str(r.get("source", ""))}
                for i, r in enumerate(payload.get("news") or [], 1)
            ][: query.num]
        return out


class BraveProvider:
    """Brave Search API: GET web/search or news/search with `X-Subscription-Token`.

    Brave has no `after:`/`before:` operators: dates become its `freshness` range, and tbs the
    nearest freshness (past hour → past day).
    """

    name = "brave"
    base_url = "https://api.search.brave.com/res/v1"
    _FRESHNESS: ClassVar[dict[str, str]] = {"qdr:h": "pd", "qdr:d": "pd", "qdr:w": "pw", "qdr:m": "pm", "qdr:y": "py"}

    def __init__(self, api_key: str, client: httpx.Client) -> None:
        self._key = api_key
        self._client = client

    def search(self, vertical: Vertical, query: SearchQuery) -> dict[str, Any]:
        q_effective = query.with_operators(dates=False)
        params: dict[str, Any] = {
            "q": q_effective,
            "count": query.num,
            "country": query.gl.upper(),
            "search_lang": query.hl,
        }
        if query.after or query.before:
            params["freshness"] = f"{query.after or '1970-01-01'}to{query.before or '2100-01-01'}"
        elif query.tbs:
            params["freshness"] = self._FRESHNESS[query.tbs]
        path = "/web/search" if vertical == "web" else "/news/search"
        payload = _post_json(
            self._client,
            "GET",
            self.base_url + path,
            self.name,
            params=params,
            headers={"X-Subscription-Token": self._key, "Accept": "application/json"},
        )
        out: dict[str, Any] = {"q_effective": q_effective}
        if vertical == "web":
            results = (payload.get("web") or {}).get("results") or []
            out["organic"] = [_brave_item(r, i) for i, r in enumerate(results, 1)][: query.num]
            if box := (payload.get("infobox") or {}).get("results"):
                out["knowledge_graph"] = box[0]
        else:
            out["news"] = [
                {
                    **_brave_item(r, i),
                    "date": str(r.get("age") or r.get("page_age") or ""),
                    "source": str((r.get("meta_url") or {}).get("hostname", "")),
                }
                for i, r in enumerate(payload.get("results") or [], 1)
            ][: query.num]
        return out


def _item(result: dict[str, Any], position: int) -> dict[str, Any]:
    link = str(result.get("link", ""))
    return {
        "title": _clean(result.get("title")),
        "link": link,
        "snippet": _clean(result.get("snippet")),
        "kind": link_kind(link),
        "position": int(result.get("position") or position),
    }


def _brave_item(result: dict[str, Any], position: int) -> dict[str, Any]:
    link = str(result.get("url", ""))
    return {
        "title": _clean(result.get("title")),
        "link": link,
        "snippet": _clean(result.get("description")),
        "kind": link_kind(link),
        "position": position,
    }


def _post_json(client: httpx.Client, method: str, url: str, provider: str, **kwargs: Any) -> dict[str, Any]:
    try:
        response = client.request(method, url, **kwargs)
    except httpx.HTTPError as exc:
        raise ToolError(
            f"search provider {provider} is unreachable ({exc.__class__.__name__})", ErrorCode.UPSTREAM_UNAVAILABLE
        ) from None
    if response.status_code in (401, 403):
        raise ToolError(
            f"search provider {provider} rejected the API key (HTTP {response.status_code}); check the "
            f"parameter named by {KEY_ENV}",
            ErrorCode.UPSTREAM_UNAVAILABLE,
        )
    if response.status_code == 429:
        raise ToolError(f"search provider {provider} rate limit reached; try again shortly", ErrorCode.RATE_LIMITED)
    if response.status_code >= 400:
        raise ToolError(
            f"search provider {provider} answered HTTP {response.status_code}", ErrorCode.UPSTREAM_UNAVAILABLE
        )
    try:
        payload: dict[str, Any] = response.json()
    except ValueError:
        raise ToolError(f"search provider {provider} sent a non-JSON answer", ErrorCode.UPSTREAM_UNAVAILABLE) from None
    return payload


PROVIDERS: dict[str, type[SerperProvider] | type[BraveProvider]] = {"serper": SerperProvider, "brave": BraveProvider}


def provider_name() -> str:
    return (os.environ.get(PROVIDER_ENV) or "serper").strip().lower()


def missing_settings() -> list[str]:
    """The search settings still missing (no secret is read): empty when a provider can be built."""
    missing = [] if is_configured(KEY_ENV) else [KEY_ENV]
    if provider_name() not in PROVIDERS:
        missing.append(PROVIDER_ENV)
    return missing


def provider_from_env(client: httpx.Client | None = None) -> SearchProvider:
    """The configured provider with its key; raises `provider_not_configured` naming what is missing."""
    name = provider_name()
    if name not in PROVIDERS:
        raise ToolError(f"{PROVIDER_ENV} must be one of {sorted(PROVIDERS)}, not {name!r}", "provider_not_configured")
    key = secret_from_env(KEY_ENV, f"the {name} search API key")
    return PROVIDERS[name](key, client or httpx.Client(timeout=10.0))
