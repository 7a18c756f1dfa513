"""Search providers behind one interface: Serper-style Google results (default), Brave Search, SearXNG.

Shared by the search service and research (its live searcher), so both call the same code.

`SEARCH_PROVIDER` picks one (serper | brave | searxng); `SEARCH_BASE_URL` replaces the active
provider's public origin (a mirror, a proxy, or the operator's own SearXNG, which has no public
default); the API key is read from the parameter named by `SEARCH_API_KEY_PARAMETER` (SearXNG
needs none). All return the seed 003 shapes: organic[]/news[] items with title, link, snippet,
kind (html|pdf) and position (news: date, source), plus answer_box and knowledge_graph when the
provider gives them, and q_effective (the query actually sent).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol
from urllib.parse import urlsplit

from mcp_platform.outbound.provider_http import keyed_client, provider_backend, request_json
from mcp_platform.protocol.errors import ToolError
from mcp_platform.search.configuration import (
    BASE_URL_ENV,
    DEFAULT_BASE_URLS,
    KEY_ENV,
    NEEDS_KEY,
    PROVIDER_ENV,
    base_url,
    provider_name,
)
from mcp_platform.storage.secrets import NOT_CONFIGURED, MissingSettingError, read_secret

if TYPE_CHECKING:
    import httpx

    from mcp_platform.backends import Backend
    from mcp_platform.contracts.search import SearchInput
    from mcp_platform.runtime.settings import SearchProviderSettings

Vertical = Literal["web", "news"]
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
    @property
    def name(self) -> str: ...

    def search(self, vertical: Vertical, query: SearchQuery, deadline: float | None = None) -> dict[str, Any]:
        """`{q_effective, organic|news: [...], answer_box?, knowledge_graph?}`; raises `ToolError`."""
        ...


def link_kind(link: str) -> str:
    """`pdf` when the link's path ends in .pdf, else `html` (what search_fetch can open)."""
    return "pdf" if urlsplit(link).path.lower().endswith(".pdf") else "html"


def _clean(text: Any) -> str:
    """Tags (a provider's `<b>` highlights) dropped. No tag closes past the last `>`, so the pattern is not
    run there: from each `<` of a run of them it scanned to the end (quadratic: 62 ms on 8,000 `<`)."""
    head, close, tail = str(text or "").rpartition(">")
    return (_TAGS.sub("", head + close) + tail).strip()


class ApiProvider:
    """A provider reached over HTTP through the shared backend client; subclasses say how to ask and read.

    The origin is `base_url`, the function's `SEARCH_BASE_URL` (empty: the provider's public default).
    """

    name: ClassVar[str]
    refused: ClassVar[str] = f"check the API key in the parameter named by {KEY_ENV}"
    """What a 401/403 tells the operator to check."""

    def __init__(self, api_key: str | None, http: httpx.Client | None = None, *, base_url: str = "") -> None:
        self._client = keyed_client(self.backend(), base_url, self.key_headers(api_key or ""), http)

    @classmethod
    def backend(cls) -> Backend:
        return provider_backend(
            cls.name, f"search provider {cls.name}", BASE_URL_ENV, DEFAULT_BASE_URLS[cls.name] or ""
        )

    def key_headers(self, _key: str) -> dict[str, str]:
        """Headers carrying the API key (none by default)."""
        return {}

    def _ask(self, method: str, path: str, deadline: float | None, **kwargs: Any) -> dict[str, Any]:
        payload = request_json(self._client, method, path, deadline=deadline, refused=self.refused, **kwargs)
        return payload if isinstance(payload, dict) else {}

    def search(self, vertical: Vertical, query: SearchQuery, deadline: float | None = None) -> dict[str, Any]:
        """`{q_effective, organic|news: [...], answer_box?, knowledge_graph?}` by `deadline` (epoch seconds)."""
        raise NotImplementedError


class SerperProvider(ApiProvider):
    """Serper-style Google results API: POST /search or /news with `X-API-KEY`."""

    name = "serper"

    def key_headers(self, key: str) -> dict[str, str]:
        return {"X-API-KEY": key}

    def search(self, vertical: Vertical, query: SearchQuery, deadline: float | None = None) -> dict[str, Any]:
        q_effective = query.with_operators()
        body: dict[str, Any] = {"q": q_effective, "num": query.num, "gl": query.gl, "hl": query.hl}
        if query.tbs:
            body["tbs"] = query.tbs
        endpoint = "/search" if vertical == "web" else "/news"
        payload = self._ask("POST", endpoint, deadline, body=body)
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


class BraveProvider(ApiProvider):
    """Brave Search API: GET web/search or news/search with `X-Subscription-Token`.

    Brave has no `after:`/`before:` operators: dates become its `freshness` range, and tbs the
    nearest freshness (past hour → past day).
    """

    name = "brave"
    _FRESHNESS: ClassVar[dict[str, str]] = {"qdr:h": "pd", "qdr:d": "pd", "qdr:w": "pw", "qdr:m": "pm", "qdr:y": "py"}

    def key_headers(self, key: str) -> dict[str, str]:
        return {"X-Subscription-Token": key}

    def search(self, vertical: Vertical, query: SearchQuery, deadline: float | None = None) -> dict[str, Any]:
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
        payload = self._ask("GET", path, deadline, params=params)
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


class SearxngProvider(ApiProvider):
    """A SearXNG instance's JSON API: GET /search?q=…&format=json (json must be in its search.formats).

    SearXNG has no result count (results are cut to `num`) and no date operators: `tbs` and
    `after` become its `time_range` (day, week, month, year: the smallest that covers `after`;
    past hour → day), `before` has no equivalent and is left out. `site:` and `filetype:` stay in
    the query, where the Google, Bing, DuckDuckGo and Brave engines honour them.
    """

    name = "searxng"
    refused: ClassVar[str] = "the instance must serve JSON: add json to search.formats in its settings.yml"
    _TIME_RANGE: ClassVar[dict[str, str]] = {
        "qdr:h": "day",
        "qdr:d": "day",
        "qdr:w": "week",
        "qdr:m": "month",
        "qdr:y": "year",
    }

    def search(self, vertical: Vertical, query: SearchQuery, deadline: float | None = None) -> dict[str, Any]:
        q_effective = query.with_operators(dates=False)
        params: dict[str, Any] = {
            "q": q_effective,
            "format": "json",
            "categories": "general" if vertical == "web" else "news",
            "language": f"{query.hl}-{query.gl.upper()}",
            "pageno": 1,
        }
        if time_range := self._time_range(query):
            params["time_range"] = time_range
        payload = self._ask("GET", "/search", deadline, params=params)
        results = [r for r in payload.get("results") or [] if isinstance(r, dict) and r.get("url")]
        out: dict[str, Any] = {"q_effective": q_effective}
        if vertical == "news":
            out["news"] = [
                {
                    **_searxng_item(r, i),
                    "date": str(r.get("publishedDate") or ""),
                    "source": urlsplit(str(r["url"])).hostname or "",
                }
                for i, r in enumerate(results, 1)
            ][: query.num]
            return out
        out["organic"] = [_searxng_item(r, i) for i, r in enumerate(results, 1)][: query.num]
        if answers := payload.get("answers"):
            first = answers[0]
            out["answer_box"] = first if isinstance(first, dict) else {"answer": str(first)}
        if boxes := payload.get("infoboxes"):
            box = boxes[0]
            out["knowledge_graph"] = {
                "title": _clean(box.get("infobox")),
                "description": _clean(box.get("content")),
                **({"url": box["id"]} if str(box.get("id", "")).startswith("http") else {}),
            }
        return out

    def _time_range(self, query: SearchQuery) -> str | None:
        if query.tbs:
            return self._TIME_RANGE[query.tbs]
        if not query.after:
            return None
        days = (datetime.now(UTC).date() - date.fromisoformat(query.after)).days
        return next(
            (name for name, most in (("day", 1), ("week", 7), ("month", 31), ("year", 366)) if days <= most), None
        )


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
    return _item(
        {"link": result.get("url"), "title": result.get("title"), "snippet": result.get("description")}, position
    )


def _searxng_item(result: dict[str, Any], position: int) -> dict[str, Any]:
    return _item({"link": result.get("url"), "title": result.get("title"), "snippet": result.get("content")}, position)


PROVIDERS: dict[str, type[ApiProvider]] = {
    "serper": SerperProvider,
    "brave": BraveProvider,
    "searxng": SearxngProvider,
}


def search_provider(settings: SearchProviderSettings, client: httpx.Client | None = None) -> SearchProvider:
    """The provider `settings` configure, with its key; raises `provider_not_configured` naming what is missing."""
    name = provider_name(settings)
    if name not in PROVIDERS:
        raise ToolError(f"{PROVIDER_ENV} must be one of {sorted(PROVIDERS)}, not {name!r}", NOT_CONFIGURED)
    provider = PROVIDERS[name]
    if not base_url(settings):
        raise MissingSettingError(
            BASE_URL_ENV, f"the {name} search URL", holds="the instance's base URL (e.g. http://127.0.0.1:8888)"
        )
    what = f"the {name} search API key"
    key = read_secret(settings.search_api_key_parameter, setting=KEY_ENV, what=what) if NEEDS_KEY[name] else None
    return provider(key, client, base_url=settings.search_base_url.strip())
