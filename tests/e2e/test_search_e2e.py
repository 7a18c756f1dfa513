"""search through the official mcp client against the local default (no provider keys), pages from 127.0.0.1."""

from __future__ import annotations

import pytest
from mcp import Client

from tests.e2e.tool_calls import Tools
from tests.integration.web_site import ARTICLE, LocalSite, Reply

pytestmark = pytest.mark.e2e

SEARCH_FETCH_PRICE = 1
# The local default names where the keys would be, and sets none of them.
SEARCH_KEY = "SEARCH_API_KEY_PARAMETER"
LLM_KEY = "GEMINI_API_KEY_PARAMETER"


@pytest.mark.anyio
async def test_provider_tools_without_keys_are_clear_free_errors(local_server) -> None:
    with LocalSite() as site:
        site.routes["/article"] = Reply(body=ARTICLE.encode())
        async with Client(local_server.url_with_key) as client:
            tools = await Tools.listed(client)

            status = await tools.free("search_status", {})
            assert (status["ok"], status["configured"]) == (True, False)
            assert status["missing_settings"] == [SEARCH_KEY, LLM_KEY]
            assert status["default_locale"] == {"gl": "us", "hl": "en"}
            assert set(status["tools"]) == {
                "search_web",
                "search_news",
                "search_fetch",
                "search_fetch_summary",
                "search_status",
            }

            for tool in ("search_web", "search_news"):
                out = await tools.refused(tool, {"q": "serverless mcp", "gl": "hu"}, "provider_not_configured")
                assert (out["missing_setting"], out["credits_charged"]) == (SEARCH_KEY, 0)
                assert SEARCH_KEY in out["error"]
            summary = await tools.refused(
                "search_fetch_summary", {"url": site.url("/article"), "lang": "hu"}, "provider_not_configured"
            )
            assert (summary["missing_setting"], summary["credits_charged"]) == (LLM_KEY, 0)
            assert not site.requests, "the summary tool must fail before fetching the page"

            bad = await tools.refused("search_web", {"q": "site:index.hu hírek"}, "invalid_arguments")
            assert "site" in bad["error"]


@pytest.mark.anyio
async def test_search_fetch_reads_and_caches_a_page(local_server) -> None:
    with LocalSite() as site:
        site.routes["/article"] = Reply(body=ARTICLE.encode())
        site.routes["/report.pdf"] = Reply(body=b"%PDF-1.4\n%...", headers={"Content-Type": "application/pdf"})
        async with Client(local_server.url_with_key) as client:
            tools = await Tools.listed(client)
            url = site.url("/article")

            first = await tools.charged("search_fetch", {"url": url, "max_length": 120}, SEARCH_FETCH_PRICE)
            assert (first["url"], first["title"], first["kind"], first["cached"]) == (
                url,
                "Local article",
                "html",
                False,
            )
            assert (first["truncated"], first["next_start_index"], len(first["content"])) == (True, 120, 120)
            assert first["content"].startswith("# Local article")

            again = await tools.charged(
                "search_fetch", {"url": url, "start_index": 120, "max_length": 100_000}, SEARCH_FETCH_PRICE
            )
            assert again["cached"] is True
            assert again["truncated"] is False and "next_start_index" not in again
            assert "## Lists and tables" in first["content"] + again["content"]
            assert [path for path, _ in site.requests].count("/article") == 1, "the second call is served from cache"

            await tools.refused("search_fetch", {"url": site.url("/report.pdf")}, "pdf_use_docs")
