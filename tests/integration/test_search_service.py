"""The search service in-process: providers replayed with respx, Bedrock with botocore's Stubber, moto for AWS."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import boto3
import httpx
import pytest
from botocore.stub import ANY, Stubber

from mcp_platform.llm.bedrock import BedrockClient
from mcp_platform.protocol.errors import ToolError
from search_service import pages, results
from search_service.app import app
from tests.integration.provider_keys import BRAVE, GEMINI, SERPER, provider_keys  # noqa: F401 - fixture
from tests.integration.web_site import ARTICLE, LocalSite, Reply, site  # noqa: F401 - fixture

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    import respx

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "search"


def fixture(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / name).read_text())


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    reply = app.handle({"tool": tool, "arguments": arguments, "account_id": "acct", "request_id": "r1"})
    return reply.structured_content


@pytest.fixture
def configured(
    provider_keys: respx.MockRouter, monkeypatch: pytest.MonkeyPatch, reload_settings: Callable[[], None]
) -> Iterator[respx.MockRouter]:
    """Keys in SSM (moto), the cache table, and every outbound call to a provider mocked."""
    monkeypatch.setenv("CACHE_TABLE", "WebCacheTable")
    reload_settings()
    results.store.cache_clear()
    yield provider_keys
    results.store.cache_clear()


def test_search_web_with_serper(configured: respx.MockRouter, validate_output: Any) -> None:
    route = configured.post(f"{SERPER}/search").respond(json=fixture("serper_web.json"))
    out = validate_output(
        "search_web",
        call(
            "search_web", q="budapest tram network history", num=3, site=["wikipedia.org", "bkv.hu"], after="2020-01-01"
        ),
    )
    sent = json.loads(route.calls.last.request.content)
    assert route.calls.last.request.headers["X-API-KEY"] == "search-secret"
    assert (
        sent["q"]
        == out["q_effective"]
        == "budapest tram network history (site:wikipedia.org OR site:bkv.hu) after:2020-01-01"
    )
    assert (sent["gl"], sent["hl"], sent["num"]) == ("us", "en", 3)
    assert out["q"] == "budapest tram network history" and out["count"] == 3
    assert [item["kind"] for item in out["organic"]] == ["html", "pdf", "html"]
    assert out["organic"][0]["snippet"].startswith("The Budapest tram network")  # markup stripped
    assert out["answer_box"]["title"] == "Trams in Budapest" and out["knowledge_graph"]["title"] == "Budapest"
    assert out["cached"] is False
    again = call(
        "search_web", q="budapest tram network history", num=3, site=["wikipedia.org", "bkv.hu"], after="2020-01-01"
    )
    assert again["cached"] is True and again["organic"] == out["organic"] and route.call_count == 1


def test_search_news_is_never_cached(configured: respx.MockRouter, validate_output: Any) -> None:
    route = configured.post(f"{SERPER}/news").respond(json=fixture("serper_news.json"))
    for _ in range(2):
        out = validate_output("search_news", call("search_news", q="budapest tram", num=2, tbs="qdr:d"))
        assert out["cached"] is False
    assert route.call_count == 2
    assert json.loads(route.calls.last.request.content)["tbs"] == "qdr:d"
    assert out["news"][1] == {
        "title": "Line 2 reopens",
        "link": "https://hirek.example.hu/villamos-2",
        "snippet": "Reopened after renovation.",
        "kind": "html",
        "position": 2,
        "date": "1 week ago",
        "source": "Hírek",
    }


def test_brave_is_selectable(
    configured: respx.MockRouter, monkeypatch: pytest.MonkeyPatch, validate_output: Any
) -> None:
    monkeypatch.setenv("SEARCH_PROVIDER", "brave")
    web = configured.get(f"{BRAVE}/web/search").respond(json=fixture("brave_web.json"))
    news = configured.get(f"{BRAVE}/news/search").respond(json=fixture("brave_news.json"))
    out = validate_output(
        "search_web",
        call(
            "search_web",
            q="budapest tram network history",
            filetype="pdf",
            after="2024-01-01",
            before="2024-06-30",
            gl="hu",
        ),
    )
    params = web.calls.last.request.url.params
    assert params["q"] == out["q_effective"] == "budapest tram network history filetype:pdf"
    assert params["freshness"] == "2024-01-01to2024-06-30" and params["country"] == "HU"
    assert web.calls.last.request.headers["X-Subscription-Token"] == "search-secret"
    assert out["provider"] == "brave" and out["organic"][0]["title"] == "Trams in Budapest - Wikipedia"
    assert out["organic"][1]["kind"] == "pdf" and out["knowledge_graph"]["title"] == "Budapest"
    got = validate_output("search_news", call("search_news", q="budapest tram", tbs="qdr:w"))
    assert news.calls.last.request.url.params["freshness"] == "pw"
    assert got["news"][0]["source"] == "news.example.com" and got["count"] == 1


@pytest.mark.parametrize(
    ("status", "words", "attempts"),
    [
        (401, "refused our credentials (HTTP 401); check the API key in the parameter named by SEARCH_API_KEY", 1),
        (429, "is rate-limiting our requests (HTTP 429)", 3),  # retried within the deadline first
        (502, "is failing (HTTP 502)", 1),
    ],
)
def test_provider_errors_are_results(configured: respx.MockRouter, status: int, words: str, attempts: int) -> None:
    route = configured.post(f"{SERPER}/search").respond(status)
    out = call("search_web", q="anything")
    assert (
        out["is_error"] is True and out["code"] == "upstream_unavailable" and out["backend"] == "search provider serper"
    )
    assert words in out["error"] and "search-secret" not in out["error"] and route.call_count == attempts


def test_provider_unreachable(configured: respx.MockRouter) -> None:
    configured.post(f"{SERPER}/search").mock(side_effect=httpx.ConnectTimeout("slow"))
    assert call("search_web", q="anything")["code"] == "upstream_unavailable"


def test_without_keys_tools_name_the_missing_setting(
    aws: None, monkeypatch: pytest.MonkeyPatch, validate_output: Any
) -> None:
    # The template sets these to "" when the deployment names no key.
    for env in ("SEARCH_API_KEY_PARAMETER", "GEMINI_API_KEY_PARAMETER"):
        monkeypatch.setenv(env, "")
    for tool in ("search_web", "search_news"):
        out = call(tool, q="x")
        assert out["code"] == "provider_not_configured" and "SEARCH_API_KEY_PARAMETER" in out["error"]
    out = call("search_fetch_summary", url="https://example.com/")
    assert out["code"] == "provider_not_configured" and out["missing_setting"] == "GEMINI_API_KEY_PARAMETER"
    status = validate_output("search_status", call("search_status"))
    assert status["configured"] is False
    assert status["missing_settings"] == ["SEARCH_API_KEY_PARAMETER", "GEMINI_API_KEY_PARAMETER"]


def test_missing_parameter_is_upstream_unavailable(
    configured: respx.MockRouter, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SEARCH_API_KEY_PARAMETER", "/mcp/test/absent")
    out = call("search_web", q="x")
    assert out["code"] == "upstream_unavailable" and "SEARCH_API_KEY_PARAMETER" in out["error"]


def test_search_status(configured: respx.MockRouter, validate_output: Any) -> None:
    out = validate_output("search_status", call("search_status"))
    assert out["ok"] is True and out["configured"] is True and out["missing_settings"] == []
    assert out["provider"] == "serper" and out["default_locale"] == {"gl": "us", "hl": "en"}
    assert out["cache"]["web_results_ttl_s"] == 21600 and out["cache"]["news"] == "never cached"
    assert out["tools"] == ["search_web", "search_news", "search_fetch", "search_fetch_summary", "search_status"]


def test_search_fetch_caches_pages(configured: respx.MockRouter, site: LocalSite, validate_output: Any) -> None:
    site.routes["/a"] = Reply(body=ARTICLE.encode())
    first = validate_output("search_fetch", call("search_fetch", url=site.url("/a"), max_length=50))
    assert first["kind"] == "html" and first["cached"] is False and first["truncated"] is True
    assert first["next_start_index"] == 50 and first["title"] == "Local article"
    second = validate_output(
        "search_fetch", call("search_fetch", url=site.url("/a"), start_index=50, max_length=10_000)
    )
    assert second["cached"] is True and second["truncated"] is False
    assert [path for path, _ in site.requests].count("/a") == 1
    assert (first["content"] + second["content"]).startswith("# Local article")


def test_search_fetch_sends_pdfs_to_docs(configured: respx.MockRouter, site: LocalSite) -> None:
    site.routes["/r.pdf"] = Reply(body=b"%PDF-1.7\n", headers={"Content-Type": "application/pdf"})
    out = call("search_fetch", url=site.url("/r.pdf"))
    assert out["code"] == "pdf_use_docs" and "docs_extract" in out["error"]
    assert call("search_fetch", url="file:///etc/passwd")["code"] == "invalid_arguments"


def test_summary_with_gemini_treats_the_page_as_data(
    configured: respx.MockRouter, site: LocalSite, validate_output: Any
) -> None:
    site.routes["/a"] = Reply(body=ARTICLE.encode())
    route = configured.post(GEMINI).respond(json=fixture("gemini_generate.json"))
    out = validate_output("search_fetch_summary", call("search_fetch_summary", url=site.url("/a"), focus="guards"))
    assert out["lang"] == "en" and out["summary"].startswith("- The page explains") and out["cached"] is False
    assert out["usage"] == {"input_tokens": 412, "output_tokens": 38}  # the provider's own counts
    body = json.loads(route.calls.last.request.content)
    assert route.calls.last.request.headers["x-goog-api-key"] == "gemini-secret"
    system = body["systemInstruction"]["parts"][0]["text"]
    assert "untrusted data" in system and "Write the whole summary in English" in system
    user = body["contents"][0]["parts"][0]["text"]
    assert "<focus>guards</focus>" in user and "<page url=" in user and "Connect to the checked address" in user
    again = call("search_fetch_summary", url=site.url("/a"), focus="guards")
    assert again["cached"] is True and route.call_count == 1


def test_summary_detects_hungarian_from_focus(configured: respx.MockRouter, site: LocalSite) -> None:
    site.routes["/a"] = Reply(body=ARTICLE.encode())
    route = configured.post(GEMINI).respond(json=fixture("gemini_generate.json"))
    out = call("search_fetch_summary", url=site.url("/a"), focus="Miért kell elutasítani a privát címeket?")
    assert out["lang"] == "hu"
    assert "in Hungarian" in json.loads(route.calls.last.request.content)["systemInstruction"]["parts"][0]["text"]
    assert call("search_fetch_summary", url=site.url("/a"), lang="de")["lang"] == "de"


def test_summary_llm_failure_is_a_result(configured: respx.MockRouter, site: LocalSite) -> None:
    site.routes["/a"] = Reply(body=ARTICLE.encode())
    configured.post(GEMINI).respond(json={"candidates": [], "promptFeedback": {"blockReason": "SAFETY"}})
    out = call("search_fetch_summary", url=site.url("/a"))
    assert out["code"] == "upstream_unavailable" and "SAFETY" in out["error"]


def test_summary_with_bedrock_converse(
    configured: respx.MockRouter, site: LocalSite, monkeypatch: pytest.MonkeyPatch, validate_output: Any
) -> None:
    site.routes["/a"] = Reply(body=ARTICLE.encode())
    client = boto3.client("bedrock-runtime", region_name="us-east-1")
    stubber = Stubber(client)
    expected = {
        "modelId": "amazon.nova-lite-v1:0",
        "system": [{"text": pages.SYSTEM_PROMPT.format(language="Hungarian")}],
        "messages": ANY,
        "inferenceConfig": {"maxTokens": 900, "temperature": 0.2},
    }
    stubber.add_response("converse", fixture("bedrock_converse.json"), expected)
    monkeypatch.setattr(
        pages, "llm_client", lambda _: BedrockClient(model_id="amazon.nova-lite-v1:0", boto3_client=client)
    )
    with stubber:
        out = validate_output("search_fetch_summary", call("search_fetch_summary", url=site.url("/a"), lang="hu"))
    stubber.assert_no_pending_responses()
    assert out["summary"].startswith("Az oldal") and out["model"] == "bedrock/amazon.nova-lite-v1:0"
    assert out["usage"] == {"input_tokens": 420, "output_tokens": 30}


def test_bedrock_throttling_is_upstream_unavailable() -> None:
    client = boto3.client("bedrock-runtime", region_name="us-east-1")
    stubber = Stubber(client)
    stubber.add_client_error("converse", service_error_code="ThrottlingException", http_status_code=429)
    with stubber, pytest.raises(ToolError) as info:
        BedrockClient(model_id="m", boto3_client=client).complete(system="s", user="u")
    assert info.value.code == "upstream_unavailable" and "Bedrock is throttling" in info.value.message
