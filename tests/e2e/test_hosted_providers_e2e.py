"""`make dev` with the hosted providers' settings, their base URLs pointed at loopback fakes (Brave, Gemini).

The keys are SecureStrings in the local store's SSM, named by the settings exactly as a deployment
names them, so the path from parameter to request header runs for real.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import boto3
import pytest
from mcp import Client

from mcp_platform.contracts.research import DEPTH_PRICES
from tests.e2e.conftest import LocalServer, running_local_server
from tests.e2e.tool_calls import Tools
from tests.integration.web_site import ARTICLE, LocalSite, Reply
from tests.support.fake_backends import Document, FakeBrave, FakeGemini

if TYPE_CHECKING:
    from collections.abc import Iterator

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def hosted() -> Iterator[tuple[LocalServer, FakeBrave, FakeGemini, LocalSite]]:
    with LocalSite() as site, FakeBrave("brave-key") as brave, FakeGemini("gemini-key") as gemini:
        for name in ("a", "b", "c"):
            site.routes[f"/{name}"] = Reply(body=ARTICLE.replace("Local article", f"Article {name}").encode())
        brave.documents = [Document(site.url(f"/{n}"), f"Article {n}", "About fetching.") for n in ("a", "b", "c")]
        settings = {
            "SEARCH_PROVIDER": "brave",
            "SEARCH_BASE_URL": brave.base_url,
            "SEARCH_API_KEY_PARAMETER": "/mcp/dev/brave",
            "LLM_BASE_URL": gemini.base_url,
            "GEMINI_API_KEY_PARAMETER": "/mcp/dev/gemini",
        }
        with running_local_server(settings, ".e2e-hosted.log") as server:
            ssm = boto3.client("ssm", endpoint_url=server.aws_endpoint, region_name="us-east-1")
            ssm.put_parameter(Name="/mcp/dev/brave", Value="brave-key", Type="SecureString")
            ssm.put_parameter(Name="/mcp/dev/gemini", Value="gemini-key", Type="SecureString")
            yield server, brave, gemini, site


@pytest.mark.anyio
async def test_brave_and_gemini_through_their_base_urls(
    hosted: tuple[LocalServer, FakeBrave, FakeGemini, LocalSite],
) -> None:
    server, brave, gemini, site = hosted
    async with Client(server.url_with_key) as client:
        tools = await Tools.listed(client)
        web = await tools.charged("search_web", {"q": "fetching pages safely", "num": 2}, 2)
        assert [item["link"] for item in web["organic"]] == [site.url("/a"), site.url("/b")]
        assert brave.requests[-1].headers["x-subscription-token"] == "brave-key"

        summary = await tools.charged("search_fetch_summary", {"url": site.url("/a")}, 6)
        assert summary["model"] == "gemini/gemini-2.5-flash-lite" and summary["usage"]["input_tokens"] > 0
        assert gemini.requests[-1].headers["x-goog-api-key"] == "gemini-key"

        brief = await tools.charged(
            "research_brief", {"query": "Why refuse private addresses?", "depth": "quick"}, DEPTH_PRICES["quick"]
        )
        assert brief["meta"] == {"mode": "live", "billable": True} and len(brief["claims"]) == 3
