"""search on self-hosted backends: SearXNG and an OpenAI-compatible model, both real loopback servers.

No key anywhere: the fakes (tests/support/fake_backends.py) speak the documented SearXNG JSON and
Chat Completions APIs, and the settings point the service at them by base URL.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import boto3
import httpx
import pytest
import respx

from mcp_platform.runtime.service import ServiceContext
from mcp_platform.search.providers import BraveProvider, SearchQuery, SerperProvider, search_provider
from search_service import pages, results
from search_service.app import app
from search_service.settings import settings
from tests.integration.web_site import ARTICLE, LocalSite, Reply, site  # noqa: F401 - fixture
from tests.support.fake_backends import Document, FakeBrave, FakeChatModel, FakeGemini, FakeSearxng, FakeSerper

if TYPE_CHECKING:
    from collections.abc import Iterator

DOCS = [
    Document("https://bkv.hu/en/trams", "Trams of <b>Budapest</b>", "The Budapest tram network is one of the largest."),
    Document("https://example.org/report.pdf", "Annual report", "Ridership figures.", "2026-11-28T09:00:00"),
    Document(
        "https://news.example/tram-4-6", "Line 4/6 gets new trams", "New trams on the Grand Boulevard.", "2026-11-29"
    ),
]


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    return app.handle({"tool": tool, "arguments": arguments, "account_id": "a", "request_id": "r"}).structured_content


@pytest.fixture
def searxng(monkeypatch: pytest.MonkeyPatch, reload_settings: Any) -> Iterator[FakeSearxng]:
    # The template sets these, empty when unused: a settings model refuses them absent.
    for name in ("SEARCH_API_KEY_PARAMETER", "GEMINI_API_KEY_PARAMETER", "CACHE_TABLE", "LLM_API_KEY_PARAMETER"):
        monkeypatch.setenv(name, "")
    results.store.cache_clear()
    with FakeSearxng(list(DOCS)) as fake:
        monkeypatch.setenv("SEARCH_PROVIDER", "searxng")
        monkeypatch.setenv("SEARCH_BASE_URL", fake.origin + "/")
        reload_settings()
        yield fake  # type: ignore[misc]
    results.store.cache_clear()


@pytest.fixture
def model(monkeypatch: pytest.MonkeyPatch, reload_settings: Any) -> Iterator[FakeChatModel]:
    with FakeChatModel() as fake:
        monkeypatch.setenv("LLM_PROVIDER", "openai")
        monkeypatch.setenv("LLM_BASE_URL", fake.base_url)
        monkeypatch.setenv("LLM_MODEL", "llama3.2")
        reload_settings()
        yield fake  # type: ignore[misc]


def test_search_web_on_searxng(searxng: FakeSearxng, validate_output: Any) -> None:
    searxng.answers = ["Budapest has 36 tram lines."]
    searxng.infoboxes = [{"infobox": "Budapest", "content": "Capital of Hungary", "id": "https://hu.wikipedia.org/"}]
    out = validate_output("search_web", call("search_web", q="budapest trams", num=2, site="bkv.hu", gl="hu", hl="hu"))
    sent = searxng.requests[-1]
    assert sent.query == {
        "q": "budapest trams site:bkv.hu",
        "format": "json",
        "categories": "general",
        "language": "hu-HU",
        "pageno": "1",
    }
    assert (out["provider"], out["count"], out["q_effective"]) == ("searxng", 2, "budapest trams site:bkv.hu")
    assert out["organic"][0] == {
        "title": "Trams of Budapest",
        "link": "https://bkv.hu/en/trams",
        "snippet": "The Budapest tram network is one of the largest.",
        "kind": "html",
        "position": 1,
    }
    assert out["organic"][1]["kind"] == "pdf"
    assert out["answer_box"] == {"answer": "Budapest has 36 tram lines."}
    assert out["knowledge_graph"] == {
        "title": "Budapest",
        "description": "Capital of Hungary",
        "url": "https://hu.wikipedia.org/",
    }


def test_search_news_on_searxng_maps_dates_and_sources(searxng: FakeSearxng, validate_output: Any) -> None:
    out = validate_output("search_news", call("search_news", q="budapest tram", tbs="qdr:h"))
    assert searxng.requests[-1].query["categories"] == "news"
    assert searxng.requests[-1].query["time_range"] == "day"  # SearXNG's smallest range
    assert [(n["date"], n["source"]) for n in out["news"]] == [
        ("2026-11-28T09:00:00", "example.org"),
        ("2026-11-29", "news.example"),
    ]


@pytest.mark.parametrize(
    ("days_ago", "time_range"), [(0, "day"), (5, "week"), (20, "month"), (200, "year"), (900, None)]
)
def test_after_becomes_the_smallest_time_range_that_covers_it(
    searxng: FakeSearxng, days_ago: int, time_range: str | None
) -> None:
    after = (datetime.now(UTC).date() - timedelta(days=days_ago)).isoformat()
    provider = search_provider(settings(), httpx.Client())
    provider.search("web", SearchQuery(q="tram", num=3, after=after))
    assert searxng.requests[-1].query.get("time_range") == time_range


def test_a_failing_searxng_is_retried_then_a_clear_error(searxng: FakeSearxng) -> None:
    searxng.status = 503
    out = call("search_web", q="x")
    assert out["code"] == "upstream_unavailable" and out["backend"] == "search provider searxng"
    assert out["error"].startswith("search provider searxng is failing (HTTP 503)")
    assert len(searxng.requests) == 3  # 503 is retried while the deadline allows


def test_searxng_refusing_json_is_explained(monkeypatch: pytest.MonkeyPatch, searxng: FakeSearxng) -> None:
    original = searxng.answer

    def html_only(seen: Any) -> Any:
        seen.query["format"] = "html"
        return original(seen)

    monkeypatch.setattr(searxng, "answer", html_only)
    out = call("search_web", q="x")
    assert out["code"] == "upstream_unavailable" and "search.formats" in out["error"]


def test_searxng_without_a_url_is_not_configured(monkeypatch: pytest.MonkeyPatch, validate_output: Any) -> None:
    monkeypatch.setenv("SEARCH_PROVIDER", "searxng")
    monkeypatch.delenv("SEARCH_BASE_URL", raising=False)
    out = call("search_web", q="x")
    assert (out["code"], out["missing_setting"]) == ("provider_not_configured", "SEARCH_BASE_URL")
    assert "base URL" in out["error"] and "SSM" not in out["error"]
    status = validate_output("search_status", call("search_status"))
    assert status["missing_settings"][0] == "SEARCH_BASE_URL" and status["provider"] == "searxng"


def test_summary_with_an_openai_compatible_model(
    searxng: FakeSearxng, model: FakeChatModel, site: LocalSite, validate_output: Any
) -> None:
    site.routes["/a"] = Reply(body=ARTICLE.encode())
    out = validate_output("search_fetch_summary", call("search_fetch_summary", url=site.url("/a")))
    assert out["model"] == "openai/llama3.2" and out["summary"].startswith("- A closing paragraph")
    sent = model.requests[-1].body
    assert sent["max_tokens"] == 900 and "untrusted data" in sent["messages"][0]["content"]
    prompt_words = sum(len(m["content"].split()) for m in sent["messages"])
    assert out["usage"] == {"input_tokens": prompt_words, "output_tokens": len(out["summary"].split())}
    status = validate_output("search_status", call("search_status"))
    assert status["configured"] is True and status["missing_settings"] == []
    assert status["summary_llm"] == {"provider": "openai", "model": "llama3.2", "base_url": "configured"}
    assert status["search_base_url"] == "configured"


@pytest.mark.parametrize(
    ("provider", "method", "path"), [(SerperProvider, "POST", "/search"), (BraveProvider, "GET", "/web/search")]
)
def test_serper_and_brave_base_urls_are_configurable(provider: type, method: str, path: str) -> None:
    with respx.mock() as router:
        route = router.route(method=method, url=f"http://mirror.test/prefix{path}").respond(json={})
        provider("k", httpx.Client(), base_url="http://mirror.test/prefix/").search("web", SearchQuery(q="x", num=1))
    assert route.call_count == 1


def test_the_summary_model_gets_only_what_the_call_has_left(
    searxng: FakeSearxng, model: FakeChatModel, site: LocalSite, monkeypatch: pytest.MonkeyPatch
) -> None:
    site.routes["/a"] = Reply(body=ARTICLE.encode())
    asked: list[float] = []
    llm = pages.llm_client(settings())  # the container's client: the tool gets this one too
    real = llm.complete

    def recording(**kwargs: Any) -> Any:
        asked.append(kwargs["timeout"])
        return real(**kwargs)

    monkeypatch.setattr(llm, "complete", recording)
    deadline = time.time() + 12.0
    reply = app.handle(
        {"tool": "search_fetch_summary", "arguments": {"url": site.url("/a")}, "account_id": "a", "request_id": "r"},
        ServiceContext(account_id="a", request_id="r", deadline_epoch=deadline),
    )
    assert reply.structured_content["summary"]
    assert len(asked) == 1 and 0 < asked[0] <= 11.0  # the page was fetched first; the model gets the rest


# ---------------------------------------------------------------- the existing providers, moved by base URL


@pytest.fixture
def keys(aws: None, monkeypatch: pytest.MonkeyPatch, reload_settings: Any) -> None:
    """Search and Gemini keys in SSM (moto), named by the settings; Powertools' cache emptied."""
    from aws_lambda_powertools.utilities.parameters import base as parameters_base

    ssm = boto3.client("ssm")
    ssm.put_parameter(Name="/mcp/t/search", Value="search-key", Type="SecureString")
    ssm.put_parameter(Name="/mcp/t/gemini", Value="gemini-key", Type="SecureString")
    monkeypatch.setenv("SEARCH_API_KEY_PARAMETER", "/mcp/t/search")
    monkeypatch.setenv("GEMINI_API_KEY_PARAMETER", "/mcp/t/gemini")
    parameters_base.DEFAULT_PROVIDERS.clear()
    reload_settings()


@pytest.mark.parametrize("name", ["serper", "brave"])
def test_serper_and_brave_on_loopback_fakes(
    name: str, keys: None, monkeypatch: pytest.MonkeyPatch, validate_output: Any, reload_settings: Any
) -> None:
    fake_type, base = {"serper": (FakeSerper, "origin"), "brave": (FakeBrave, "base_url")}[name]
    with fake_type("search-key", list(DOCS)) as fake:
        monkeypatch.setenv("SEARCH_PROVIDER", name)
        monkeypatch.setenv("SEARCH_BASE_URL", getattr(fake, base))
        reload_settings()
        web = validate_output("search_web", call("search_web", q="budapest trams", num=2))
        news = validate_output("search_news", call("search_news", q="budapest trams"))
        fake.api_key = "rotated"
        refused = call("search_web", q="budapest trams again")
    assert [item["link"] for item in web["organic"]] == [DOCS[0].url, DOCS[1].url]
    assert [item["link"] for item in news["news"]] == [DOCS[1].url, DOCS[2].url]
    assert refused["code"] == "upstream_unavailable" and refused["backend"] == f"search provider {name}"


def test_research_goes_live_on_serper_and_gemini_fakes(
    keys: None, site: LocalSite, monkeypatch: pytest.MonkeyPatch, validate_output: Any, reload_settings: Any
) -> None:
    from research_service.app import app as research

    site.routes["/a"] = Reply(body=ARTICLE.encode())
    site.routes["/b"] = Reply(body=ARTICLE.replace("Local article", "Second article").encode())
    docs = [Document(site.url("/a"), "A", "a"), Document(site.url("/b"), "B", "b")]
    with FakeSerper("search-key", docs) as serper, FakeGemini("gemini-key") as gemini:
        monkeypatch.setenv("SEARCH_BASE_URL", serper.origin)
        monkeypatch.setenv("LLM_BASE_URL", gemini.base_url)
        reload_settings()
        reply = research.handle(
            {
                "tool": "research_brief",
                "arguments": {"query": "Why refuse private addresses?", "depth": "quick"},
                "account_id": "a",
                "request_id": "r",
            }
        )
    out = validate_output("research_brief", reply.structured_content)
    assert out["meta"] == {"mode": "live", "billable": True} and "fail_gate" not in out
    assert {c["source_url"] for c in out["claims"]} == {site.url("/a"), site.url("/b")}
    assert gemini.requests[-1].path == "/v1beta/models/gemini-2.5-flash-lite:generateContent"
