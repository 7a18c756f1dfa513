"""The platform fully self-hosted: `make dev` pointed at SearXNG and an OpenAI-compatible model server.

Both are loopback fakes written from the public API documentation (tests/support/fake_backends.py),
pages come from a loopback site, and the official `mcp` client drives the local default. This is
the live path of search and research, end to end, with no key anywhere:
search → pages fetched (SSRF guard's test switch for 127.0.0.1) → model → quote gate → envelope.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import httpx
import jsonschema
import pytest
from mcp import Client

from mcp_platform.contracts.research import DEPTH_PRICES, seed
from tests.e2e.conftest import ROOT, LocalServer, running_local_server
from tests.e2e.tool_calls import Tools
from tests.integration.web_site import LocalSite, Reply
from tests.support.fake_backends import Document, FakeChatModel, FakeSearxng

if TYPE_CHECKING:
    from collections.abc import Iterator

pytestmark = pytest.mark.e2e

LOG = ".e2e-self-hosted.log"
QUESTION = "How long is the Danube river?"
TOPICS = ["length", "source", "delta", "cities", "bridges", "shipping"]


def article(topic: str) -> str:
    """A page about one fact of the Danube: a heading and three paragraphs of plain prose."""
    sentences = [
        f"The Danube {topic} has been measured and described by geographers for more than two centuries.",
        f"Reports on the {topic} of the river are published by the International Commission every year.",
        f"Local historians add many details about the {topic} that national atlases tend to leave out.",
    ]
    paragraphs = "".join(f"<p>{s} {s.replace('Danube', 'river')}</p>" for s in sentences)
    return (
        f"<!doctype html><html><head><title>Danube {topic}</title></head><body>"
        f"<nav><a href='/'>Home</a></nav><article><h1>Danube {topic}</h1>{paragraphs}</article>"
        "<footer>Contact us</footer></body></html>"
    )


class SelfHosted:
    def __init__(self, server: LocalServer, search: FakeSearxng, model: FakeChatModel, site: LocalSite) -> None:
        self.server, self.search, self.model, self.site = server, search, model, site

    def client(self) -> Client:
        return Client(self.server.url_with_key)


@pytest.fixture(scope="module")
def hosted() -> Iterator[SelfHosted]:
    with LocalSite() as site, FakeSearxng() as search, FakeChatModel() as model:
        for topic in TOPICS:
            site.routes[f"/danube/{topic}"] = Reply(body=article(topic).encode())
        search.documents = [
            Document(site.url(f"/danube/{t}"), f"Danube {t}", f"About the Danube {t}.", "2026-11-20") for t in TOPICS
        ]
        settings = {
            "SEARCH_PROVIDER": "searxng",
            "SEARCH_BASE_URL": search.origin,
            "LLM_PROVIDER": "openai",
            "LLM_BASE_URL": model.base_url,
            "LLM_MODEL": "llama3.2",
        }
        with running_local_server(settings, LOG) as server:
            yield SelfHosted(server, search, model, site)  # type: ignore[arg-type]


@pytest.fixture
def fresh(hosted: SelfHosted) -> SelfHosted:
    """The module's servers with the model back to normal behaviour."""
    hosted.model.status, hosted.model.delay, hosted.model.paraphrase = 200, 0.0, False
    return hosted


def seed_valid(structured: dict[str, Any]) -> None:
    schema = {"$ref": "#/definitions/researchBriefOutput", "definitions": seed()["definitions"]}
    jsonschema.Draft202012Validator(schema).validate(structured)


def test_health_and_status_say_what_is_active(fresh: SelfHosted) -> None:
    health = httpx.get(f"{fresh.server.base}/health").json()
    assert health["backends"] == {
        "search": {"provider": "searxng", "base_url": "configured", "missing": []},
        "llm": {"provider": "openai", "model": "llama3.2", "base_url": "configured", "missing": []},
        "missing": [],
    }
    assert fresh.search.origin not in json.dumps(health)


@pytest.mark.anyio
async def test_search_tools_on_searxng_and_the_model(fresh: SelfHosted) -> None:
    async with fresh.client() as client:
        tools = await Tools.listed(client)
        status = await tools.free("search_status", {})
        assert (status["configured"], status["provider"], status["summary_llm"]["model"]) == (
            True,
            "searxng",
            "llama3.2",
        )

        web = await tools.charged("search_web", {"q": "danube length", "num": 3, "gl": "de", "hl": "de"}, 2)
        assert [item["link"] for item in web["organic"]] == [d.url for d in fresh.search.documents[:3]]
        assert fresh.search.requests[-1].query["language"] == "de-DE"
        news = await tools.charged("search_news", {"q": "danube shipping", "num": 2}, 2)
        assert news["news"][0]["date"] == "2026-11-20" and news["news"][0]["source"] == "127.0.0.1"

        url = fresh.search.documents[0].url
        summary = await tools.charged("search_fetch_summary", {"url": url}, 6)
        assert summary["model"] == "openai/llama3.2" and summary["summary"].startswith("- The Danube length")
        sent = fresh.model.requests[-1].body
        words = sum(len(m["content"].split()) for m in sent["messages"])
        assert summary["usage"] == {"input_tokens": words, "output_tokens": len(summary["summary"].split())}


@pytest.mark.anyio
@pytest.mark.parametrize("depth", ["quick", "standard"])
async def test_research_brief_runs_live_and_is_charged(fresh: SelfHosted, depth: str) -> None:
    async with fresh.client() as client:
        tools = await Tools.listed(client)
        out = await tools.charged("research_brief", {"query": QUESTION, "depth": depth}, DEPTH_PRICES[depth])
    seed_valid({k: v for k, v in out.items() if k not in ("credits_charged", "credits_balance")})
    assert out["meta"] == {"mode": "live", "billable": True} and "fail_gate" not in out
    pages = {"quick": 3, "standard": 6}[depth]
    assert len(out["claims"]) == pages  # one verbatim quote per page read, every one through the gate
    for claim in out["claims"]:
        assert claim["quote"].startswith("The Danube") and claim["source_url"].startswith(fresh.site.url("/danube/"))
    prompt = fresh.model.requests[-1].body["messages"][1]["content"]
    assert prompt.count("<page url=") == pages


@pytest.mark.anyio
async def test_a_paraphrasing_model_fails_the_gate_and_costs_nothing(fresh: SelfHosted) -> None:
    fresh.model.paraphrase = True
    async with fresh.client() as client:
        tools = await Tools.listed(client)
        out = await tools.free("research_brief", {"query": QUESTION, "depth": "quick"})
    assert out["fail_gate"]["reason"] == "quote_gate_failed" and out["claims"] == []
    assert sum(g.startswith("dropped claim (quote not found") for g in out["gaps"]) == 3


@pytest.mark.anyio
async def test_a_failing_model_is_a_clear_gap_and_costs_nothing(fresh: SelfHosted) -> None:
    fresh.model.status = 500
    async with fresh.client() as client:
        tools = await Tools.listed(client)
        out = await tools.free("research_brief", {"query": QUESTION, "depth": "quick"})
        failed = await tools.refused(
            "search_fetch_summary", {"url": fresh.search.documents[1].url}, "upstream_unavailable"
        )
    assert out["fail_gate"]["reason"] == "quote_gate_failed"
    assert any(
        g.startswith("the model could not draft claims: the OpenAI-compatible model server is failing (HTTP 500)")
        for g in out["gaps"]
    )
    assert failed["backend"] == "the OpenAI-compatible model server" and "HTTP 500" in failed["error"]


@pytest.mark.anyio
async def test_a_model_that_times_out_is_a_clear_gap_and_costs_nothing(fresh: SelfHosted) -> None:
    fresh.model.delay = 30.0  # longer than the quick brief's whole budget (14 s)
    async with fresh.client() as client:
        tools = await Tools.listed(client)
        out = await tools.free("research_brief", {"query": QUESTION, "depth": "quick"})
    assert out["fail_gate"]["reason"] == "quote_gate_failed"
    assert "the model could not draft claims: the OpenAI-compatible model server did not answer in time" in " ".join(
        out["gaps"]
    )


def test_research_logs_the_models_real_token_counts(fresh: SelfHosted) -> None:
    """The briefs above logged the provider's own usage (the fake counts words), not an estimate."""
    lines = [json.loads(line) for line in (ROOT / LOG).read_text().splitlines() if '"llm completion"' in line]
    assert lines, "no brief logged its token usage"
    assert all(line["model"] == "openai/llama3.2" for line in lines)
    assert all(isinstance(line["input_tokens"], int) and line["input_tokens"] > 0 for line in lines)
    assert not any(re.search(r"Bearer|api[_-]?key", json.dumps(line), re.IGNORECASE) for line in lines)
