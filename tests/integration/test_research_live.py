"""Research through its live backends, in-process: nothing between the tool and the network is faked.

Keys sit in SSM (moto) and the settings name them, so `live_backends()` builds the
real adapters: the search provider's API (Serper) and Gemini are replayed with respx
from recordings under tests/fixtures/research/, Bedrock through botocore's Stubber,
and pages come from a real HTTP server on 127.0.0.1 through the SSRF-guarded
`fetch_page` (loopback allowed by `SSRF_ALLOW_LOOPBACK=1`, robots.txt honoured).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import boto3
import pytest
from botocore.stub import ANY, Stubber

from mcp_platform.llm.bedrock import BedrockClient
from research_service import live
from research_service.budget import CAPS
from research_service.drafting import BRIEF_SYSTEM, LOOKUP_SYSTEM
from research_service.settings import settings
from tests.integration.provider_keys import GEMINI, GEMINI_KEY, SEARCH_KEY, SERPER, provider_keys  # noqa: F401
from tests.integration.web_site import LocalSite, Reply, site  # noqa: F401 - fixture
from tests.support.research import call, ok
from tests.support.ssrf import STRICT, use_policy

if TYPE_CHECKING:
    import respx

    from mcp_platform.llm import Completion

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "research"
WEBB = "When did the James Webb Space Telescope launch?"
ASK = "When did Webb launch?"
EXACT = "Webb launched on 25 December 2021 from Europe's Spaceport in Kourou, French Guiana, aboard an Ariane 5 rocket."
PAGES = {"/nasa/webb": "nasa-webb.html", "/esa/webb": "esa-webb.html", "/blog/webb": "blog-webb.html"}


def recorded(name: str, site: LocalSite) -> dict[str, Any]:
    """A recorded provider response whose links point at the local site (`{site}` in the file)."""
    return json.loads((FIXTURES / name).read_text(encoding="utf-8").replace("{site}", site.url("")))


@pytest.fixture
def web(provider_keys: respx.MockRouter, site: LocalSite) -> LocalSite:
    """The local site serving the recorded pages, with provider keys configured (research is live)."""
    for path, name in PAGES.items():
        site.routes[path] = Reply(body=(FIXTURES / "pages" / name).read_bytes())
    return site


def route_search(router: respx.MockRouter, site: LocalSite) -> respx.Route:
    return router.post(f"{SERPER}/search").respond(json=recorded("live_serper_webb.json", site))


def prompt_of(route: respx.Route) -> tuple[str, str]:
    body = json.loads(route.calls.last.request.content)
    return body["systemInstruction"]["parts"][0]["text"], body["contents"][0]["parts"][0]["text"]


# ---------------------------------------------------------------- research_brief


def test_live_brief_keeps_exact_quotes_drops_paraphrases_and_is_billed(
    provider_keys: respx.MockRouter, web: LocalSite, validate_output: Any
) -> None:
    search = route_search(provider_keys, web)
    gemini = provider_keys.post(GEMINI).respond(json=recorded("live_gemini_brief.json", web))
    reply = call("research_brief", query=WEBB, depth="quick")
    out = ok("research_brief", reply, validate_output)

    assert out["meta"] == {"mode": "live", "billable": True} and reply.waive_charge is False
    assert "fail_gate" not in out and (out["query"], out["depth"]) == (WEBB, "quick")
    # the exact quote and the one equal after quote-mark/space normalisation survive, in order
    assert [c["source_url"] for c in out["claims"]] == [web.url("/nasa/webb"), web.url("/esa/webb")]
    assert out["claims"][0]["quote"] == EXACT
    # the paraphrase and the quote taken from another page than the one it cites are dropped, with reasons
    dropped = [g for g in out["gaps"] if g.startswith("dropped claim")]
    assert dropped == [
        f"dropped claim (quote not found in {web.url('/nasa/webb')}): Webb reached its orbit at L2 in January 2022.",
        f"dropped claim (quote not found in {web.url('/nasa/webb')}): ESA provided the NIRSpec instrument.",
    ]
    assert "the pages do not give the launch time in UTC" in out["gaps"]
    # sources are the pages read live that back a surviving claim; all on one host: one publisher, primary
    assert [(s["url"], s["source"], s["type"]) for s in out["sources"]] == [
        (web.url("/nasa/webb"), "live", "primary"),
        (web.url("/esa/webb"), "live", "primary"),
    ]
    assert out["sources"][0]["title"] == "James Webb Space Telescope - NASA Science"
    assert out["confidence"] == "medium"
    assert out["tldr"].startswith("The James Webb Space Telescope launched on 25 December 2021")

    sent = json.loads(search.calls.last.request.content)
    assert (sent["q"], sent["num"]) == (WEBB, 8) and search.calls.last.request.headers["X-API-KEY"] == SEARCH_KEY
    assert search.call_count == CAPS["quick"].searches
    requested = [path for path, _ in web.requests]
    assert {"/nasa/webb", "/esa/webb", "/blog/webb"} <= set(requested)
    assert "/reports/webb.pdf" not in requested  # PDFs are left to docs_extract
    system, user = prompt_of(gemini)
    assert system == BRIEF_SYSTEM and gemini.calls.last.request.headers["x-goog-api-key"] == GEMINI_KEY
    assert f'<page url="{web.url("/esa/webb")}"' in user and "lifted off at 13:20 CET" in user


def test_live_brief_of_paraphrases_fails_the_gate_and_is_not_billed(
    provider_keys: respx.MockRouter, web: LocalSite, validate_output: Any
) -> None:
    route_search(provider_keys, web)
    provider_keys.post(GEMINI).respond(json=recorded("live_gemini_brief_paraphrased.json", web))
    reply = call("research_brief", query=WEBB, depth="quick")
    out = ok("research_brief", reply, validate_output)
    assert out["fail_gate"] == {"reason": "quote_gate_failed", "retryable": True}
    assert out["meta"] == {"mode": "live", "billable": False} and reply.waive_charge is True
    assert out["claims"] == [] and out["sources"] == [] and out["confidence"] == "unknown"
    assert sum(g.startswith("dropped claim (quote not found") for g in out["gaps"]) == 2


def test_live_brief_with_bedrock(
    provider_keys: respx.MockRouter, web: LocalSite, monkeypatch: pytest.MonkeyPatch, validate_output: Any
) -> None:
    monkeypatch.setenv("LLM_PROVIDER", "bedrock")
    assert settings().llm_provider == "bedrock"
    route_search(provider_keys, web)
    client = boto3.client("bedrock-runtime", region_name="us-east-1")
    stubber = Stubber(client)
    expected = {
        "modelId": "amazon.nova-lite-v1:0",
        "system": [{"text": BRIEF_SYSTEM}],
        "messages": ANY,
        "inferenceConfig": {"maxTokens": CAPS["quick"].reply_tokens, "temperature": 0.2},
    }
    stubber.add_response("converse", recorded("live_bedrock_brief.json", web), expected)
    timeouts: list[float | None] = []

    class Recording(BedrockClient):
        def complete(self, **kwargs: Any) -> Completion:
            timeouts.append(kwargs.get("timeout"))
            return super().complete(**kwargs)

    monkeypatch.setattr(live, "llm_client", lambda _: Recording(model_id="amazon.nova-lite-v1:0", boto3_client=client))
    with stubber:
        reply = call("research_brief", query=WEBB, depth="quick")
    stubber.assert_no_pending_responses()
    out = ok("research_brief", reply, validate_output)
    assert out["meta"] == {"mode": "live", "billable": True} and reply.waive_charge is False
    assert out["claims"][0]["quote"] == EXACT and len(out["claims"]) == 2
    assert len(timeouts) == 1 and 0 < timeouts[0] <= CAPS["quick"].seconds  # the draft is capped by the budget


def test_search_provider_failure_is_a_gap_and_costs_nothing(
    provider_keys: respx.MockRouter, web: LocalSite, validate_output: Any
) -> None:
    provider_keys.post(f"{SERPER}/search").respond(429)
    gemini = provider_keys.post(GEMINI).respond(json=recorded("live_gemini_brief.json", web))
    reply = call("research_brief", query=WEBB, depth="quick")
    out = ok("research_brief", reply, validate_output)
    assert out["fail_gate"]["reason"] == "quote_gate_failed" and reply.waive_charge is True
    assert any("rate-limiting" in g for g in out["gaps"]) and "the searches found no pages" in out["gaps"]
    assert gemini.call_count == 0 and web.requests == []
    assert SEARCH_KEY not in json.dumps(out)


def test_without_a_search_key_research_is_not_live(
    provider_keys: respx.MockRouter, monkeypatch: pytest.MonkeyPatch, validate_output: Any
) -> None:
    monkeypatch.setenv("SEARCH_API_KEY_PARAMETER", "")  # the template's value when no key is configured
    reply = call("research_brief", query=WEBB, depth="quick")
    assert ok("research_brief", reply, validate_output)["meta"]["mode"] == "golden"
    assert not provider_keys.calls


# ---------------------------------------------------------------- source_lookup


def test_lookup_of_a_live_page_is_found(provider_keys: respx.MockRouter, web: LocalSite, validate_output: Any) -> None:
    gemini = provider_keys.post(GEMINI).respond(json=recorded("live_gemini_lookup.json", web))
    reply = call("source_lookup", claim_or_url=web.url("/nasa/webb"), ask=ASK)
    out = ok("source_lookup", reply, validate_output)
    assert (out["verdict"], out["http_status"]) == ("found", 200)
    assert out["meta"] == {"mode": "live", "billable": True} and reply.waive_charge is False
    assert out["claims"] == [
        {"claim": "Webb launched on 25 December 2021.", "quote": EXACT, "source_url": web.url("/nasa/webb")}
    ]
    assert out["sources"][0]["source"] == "live"
    assert prompt_of(gemini)[0] == LOOKUP_SYSTEM


def test_lookup_of_a_missing_page_is_not_found(
    provider_keys: respx.MockRouter, web: LocalSite, validate_output: Any
) -> None:
    gemini = provider_keys.post(GEMINI).respond(json=recorded("live_gemini_lookup.json", web))
    reply = call("source_lookup", claim_or_url=web.url("/nasa/gone"), ask=ASK)
    out = ok("source_lookup", reply, validate_output)
    assert (out["verdict"], out["http_status"]) == ("not_found", 404)
    assert out["meta"]["billable"] is True and reply.waive_charge is False
    assert out["claims"] == [] and "HTTP 404: the page is gone" in out["gaps"]
    assert gemini.call_count == 0  # the HTTP outcome decides; no model reads a 404


def test_lookup_of_a_redirect_is_moved(provider_keys: respx.MockRouter, web: LocalSite, validate_output: Any) -> None:
    web.routes["/webb-old"] = Reply(301, headers={"Location": "/nasa/webb"})
    provider_keys.post(GEMINI).respond(json=recorded("live_gemini_lookup.json", web))
    reply = call("source_lookup", claim_or_url=web.url("/webb-old"), ask=ASK)
    out = ok("source_lookup", reply, validate_output)
    assert (out["verdict"], out["http_status"]) == ("moved", 301)
    assert out["gaps"][0] == f"moved: {web.url('/webb-old')} redirects (HTTP 301) to {web.url('/nasa/webb')}"
    assert [c["source_url"] for c in out["claims"]] == [web.url("/nasa/webb")]
    assert out["meta"]["billable"] is True


def test_lookup_of_a_robots_disallowed_page_is_blocked_and_not_fetched(
    provider_keys: respx.MockRouter, web: LocalSite, validate_output: Any
) -> None:
    web.routes["/robots.txt"] = Reply(body=b"User-agent: *\nDisallow: /nasa/\n", headers={"Content-Type": "text/plain"})
    gemini = provider_keys.post(GEMINI).respond(json=recorded("live_gemini_lookup.json", web))
    reply = call("source_lookup", claim_or_url=web.url("/nasa/webb"), ask=ASK)
    out = ok("source_lookup", reply, validate_output)
    assert (out["verdict"], out["http_status"]) == ("blocked", None)
    assert out["meta"] == {"mode": "live", "billable": False} and reply.waive_charge is True
    assert "robots.txt does not allow" in out["gaps"][0]
    assert [path for path, _ in web.requests] == ["/robots.txt"] and gemini.call_count == 0


def test_lookup_of_a_private_address_is_blocked(
    provider_keys: respx.MockRouter, monkeypatch: pytest.MonkeyPatch, validate_output: Any
) -> None:
    use_policy(monkeypatch, STRICT)
    reply = call("source_lookup", claim_or_url="http://127.0.0.1:9/admin", ask=ASK)
    out = ok("source_lookup", reply, validate_output)
    assert (out["verdict"], out["meta"]["billable"]) == ("blocked", False)
    assert "loopback" in out["gaps"][0]


def test_the_drafts_timeout_reaches_the_gemini_request(provider_keys: respx.MockRouter, web: LocalSite) -> None:
    """The budget's draft timeout caps the request, so a slow model cannot outlast the Lambda."""
    route = provider_keys.post(GEMINI).respond(json=recorded("live_gemini_lookup.json", web))
    assert live.PlatformLlm().complete("system", "prompt", 100, timeout=7.5).text
    assert 7.0 < route.calls.last.request.extensions["timeout"]["read"] <= 7.5


def test_the_drafts_timeout_picks_a_capped_bedrock_client(
    provider_keys: respx.MockRouter, web: LocalSite, monkeypatch: pytest.MonkeyPatch
) -> None:
    """botocore takes no per-request timeout: the call goes through a client that reads for 7 s at most, once."""
    monkeypatch.setenv("LLM_PROVIDER", "bedrock")
    llm = live.llm_client(settings())
    capped = llm.runtime(7.5)
    assert capped.meta.config.read_timeout == 7 and capped.meta.config.retries["total_max_attempts"] == 1
    with Stubber(capped) as stubber:
        stubber.add_response("converse", recorded("live_bedrock_brief.json", web))
        assert live.PlatformLlm().complete("system", "prompt", 100, timeout=7.5).text
        stubber.assert_no_pending_responses()
