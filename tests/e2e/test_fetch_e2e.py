"""fetch through the official mcp client against the local default, on pages served from 127.0.0.1."""

from __future__ import annotations

import json

import pytest
from mcp import Client

from tests.e2e.tool_calls import Tools
from tests.integration.web_site import ARTICLE, LocalSite, Reply

pytestmark = pytest.mark.e2e

FETCH_PRICE = 1


@pytest.mark.anyio
async def test_every_fetch_tool(local_server) -> None:
    with LocalSite() as site:
        site.routes["/article"] = Reply(body=ARTICLE.encode())
        site.routes["/data.json"] = Reply(
            body=b'{"b":[1,2],"a":"\xc3\xa1"}', headers={"Content-Type": "application/json"}
        )
        site.routes["/paper.pdf"] = Reply(body=b"%PDF-1.4\n%...", headers={"Content-Type": "application/pdf"})
        async with Client(local_server.url_with_key) as client:
            tools = await Tools.listed(client)

            page = await tools.charged("fetch", {"url": site.url("/article")}, FETCH_PRICE)
            assert (page["title"], page["status"], page["kind"], page["truncated"]) == (
                "Local article",
                200,
                "html",
                False,
            )
            assert page["final_url"] == site.url("/article")
            assert "## Lists and tables" in page["content"]
            assert f"[guard]({site.url('/guard')})" in page["content"]
            assert "Copyright footer" not in page["content"]

            head = await tools.charged("fetch", {"url": site.url("/article"), "max_length": 80}, FETCH_PRICE)
            assert (head["content"], head["truncated"], head["next_start_index"]) == (page["content"][:80], True, 80)
            rest = await tools.charged(
                "fetch", {"url": site.url("/article"), "start_index": 80, "max_length": 1_000_000}, FETCH_PRICE
            )
            assert head["content"] + rest["content"] == page["content"]

            raw = await tools.charged("fetch", {"url": site.url("/article"), "raw": True}, FETCH_PRICE)
            assert "<footer>Copyright footer text</footer>" in raw["content"]

            data = await tools.charged("fetch", {"url": site.url("/data.json")}, FETCH_PRICE)
            assert data["content"] == json.dumps({"b": [1, 2], "a": "á"}, indent=2, ensure_ascii=False)

            refused = await tools.refused("fetch", {"url": site.url("/paper.pdf")}, "pdf_use_docs")
            assert "docs_extract" in refused["error"]
            await tools.refused("fetch", {"url": site.url("/missing")}, "http_error")
            bad = await tools.refused("fetch", {"url": "ftp://example.com/x"}, "invalid_arguments")
            assert "url" in bad["error"]

            status = await tools.free("fetch_status", {})
            assert status["ok"] is True
            assert status["user_agent"].startswith("McpPlatformFetch/")
            assert status["limits"]["max_redirects"] == 5
            assert status["extractor_version"]
        robots_checked = [path for path, _headers in site.requests if path == "/robots.txt"]
        assert robots_checked, "fetch must consult robots.txt"
