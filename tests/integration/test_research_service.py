"""The research service end to end inside one process: golden, live (recorded) and sample modes.

Every successful output is validated against seed 004 itself (the shipped
copy, checked byte for byte in the unit tests) as well as the published
outputSchema. "Live" runs replay recordings under tests/fixtures/research/
through the live code path, so billing decisions are those of a real call.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jsonschema
import pytest

from mcp_platform.contracts.research import seed
from mcp_platform.outbound.provider_status import providers_configured
from mcp_platform.runtime.service import ServiceContext
from mcp_platform.runtime.settings import ProviderSettings
from research_service import modes
from research_service.app import app
from research_service.recorded import GOLDEN_DIR, Run, replay
from tests.support.research import LIVE_SETTINGS, call, ok

if TYPE_CHECKING:
    from collections.abc import Callable

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "research"
WEBB = "When did the James Webb Space Telescope launch?"
NASA = "https://science.nasa.gov/mission/webb/"
GOLDEN_BRIEF = GOLDEN_DIR / "brief_webb_launch.json"


@pytest.fixture
def live_from(monkeypatch: pytest.MonkeyPatch):
    """`live_from("file.json")`: answer in live mode from a recorded run under tests/fixtures/research/."""

    def use(name: str | Path) -> None:
        run = Run.load(FIXTURES / name if isinstance(name, str) else name)
        monkeypatch.setattr(modes, "live_backends", lambda: replay(run, mode="live"))

    return use


@pytest.fixture
def preview_on(monkeypatch: pytest.MonkeyPatch, reload_settings: Callable[[], None]) -> None:
    monkeypatch.setenv("ENABLE_PREVIEW_TOOLS", "1")
    reload_settings()


# ---------------------------------------------------------------- research_brief


@pytest.mark.parametrize(("depth", "kept"), [("quick", 3), ("standard", 4)])
def test_golden_brief_keeps_only_gated_claims_and_is_not_billed(depth: str, kept: int, validate_output: Any) -> None:
    reply = call("research_brief", query=WEBB.upper(), depth=depth)
    out = ok("research_brief", reply, validate_output)
    assert out["meta"] == {"mode": "golden", "billable": False} and reply.waive_charge
    assert (out["query"], out["depth"], out["schema_version"]) == (WEBB.upper(), depth, "2026-09-14")
    assert "fail_gate" not in out
    assert len(out["claims"]) == kept
    # the paraphrase and the quote taken from another source were dropped and said so
    assert any("Webb reached its orbit around L2 on 24 January 2022" in g for g in out["gaps"])
    assert sum(g.startswith("dropped claim (quote not found in") for g in out["gaps"]) == 2
    assert out["confidence"] == "high"  # NASA and ESA: two independent primaries
    cited = {c["source_url"] for c in out["claims"]}
    assert cited == {s["url"] for s in out["sources"]}
    assert all(s["source"] == "cached" for s in out["sources"])
    assert {s["publisher"]: s["type"] for s in out["sources"]}["wikipedia.org"] == "secondary"


def test_live_brief_is_billed(live_from: Any, validate_output: Any) -> None:
    live_from(GOLDEN_BRIEF)
    reply = call("research_brief", query=WEBB, depth="standard", as_of_hint="2026-01")
    out = ok("research_brief", reply, validate_output)
    assert out["meta"] == {"mode": "live", "billable": True} and not reply.waive_charge
    assert out["as_of"] == "2026-01"


def test_gate_failure_is_reported_and_not_billed(live_from: Any, validate_output: Any) -> None:
    live_from("brief_gate_fails.json")
    reply = call("research_brief", query=WEBB, depth="quick")
    out = ok("research_brief", reply, validate_output)
    assert out["fail_gate"] == {"reason": "quote_gate_failed", "retryable": True}
    assert out["meta"] == {"mode": "live", "billable": False} and reply.waive_charge
    assert out["claims"] == [] and out["sources"] == [] and out["confidence"] == "unknown"
    assert "launch time not found" in out["gaps"]
    assert any("shorter than" in g for g in out["gaps"])


def test_reply_that_is_not_json_fails_the_gate_with_a_gap(live_from: Any, validate_output: Any) -> None:
    live_from("brief_reply_not_json.json")
    out = ok("research_brief", call("research_brief", query=WEBB, depth="quick"), validate_output)
    assert out["fail_gate"]["reason"] == "quote_gate_failed"
    assert any("not the agreed JSON" in g for g in out["gaps"])


def test_no_time_left_returns_what_it_has_instead_of_timing_out(live_from: Any, validate_output: Any) -> None:
    live_from("brief_gate_fails.json")
    payload = {
        "tool": "research_brief",
        "arguments": {"query": WEBB, "depth": "quick"},
        "account_id": "a",
        "request_id": "r",
    }
    reply = app.handle(payload, ServiceContext("a", "r", deadline_epoch=time.time() + 3))
    out = ok("research_brief", reply, validate_output)
    assert out["fail_gate"]["reason"] == "quote_gate_failed" and reply.waive_charge
    assert any(g.startswith("time budget") for g in out["gaps"])


def test_unmatched_query_without_providers_answers_the_sample(validate_output: Any) -> None:
    reply = call("research_brief", query="What is the tallest tree in Europe?", depth="quick")
    out = ok("research_brief", reply, validate_output)
    assert out["meta"] == {"mode": "sample", "billable": False} and reply.waive_charge
    assert out["fail_gate"] == {"reason": "sample_path", "retryable": False}
    assert out["gaps"][0].startswith("sample:") and out["query"] == "What is the tallest tree in Europe?"


def test_deep_needs_preview_with_the_seed_error_shape() -> None:
    out = call("research_brief", query=WEBB, depth="deep").structured_content
    assert out["is_error"] is True and out["code"] == "preview_required" and out["error"] == "preview_required"
    assert "ENABLE_PREVIEW_TOOLS" in out["message"]
    seed_error = {"$ref": "#/definitions/toolError", "definitions": seed()["definitions"]}
    jsonschema.Draft202012Validator(seed_error).validate(out)


def test_deep_with_preview_runs_and_is_never_billed(preview_on: None, live_from: Any, validate_output: Any) -> None:
    live_from(GOLDEN_BRIEF)
    reply = call("research_brief", query=WEBB, depth="deep")
    out = ok("research_brief", reply, validate_output)
    assert out["depth"] == "deep" and out["meta"]["billable"] is False and reply.waive_charge
    assert len(out["claims"]) == 4


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({"query": WEBB, "depth": "fast"}, "depth"),
        ({"depth": "quick"}, "query"),
        ({"query": "", "depth": "quick"}, "query"),
    ],
)
def test_bad_brief_input_names_the_field(arguments: dict[str, Any], field: str) -> None:
    out = call("research_brief", **arguments).structured_content
    assert out["code"] == "invalid_arguments" and field in out["error"]


# ---------------------------------------------------------------- source_lookup


def test_golden_lookup_of_a_live_page_is_found(validate_output: Any) -> None:
    reply = call("source_lookup", claim_or_url=NASA, ask="When did Webb launch?")
    out = ok("source_lookup", reply, validate_output)
    assert (out["verdict"], out["http_status"]) == ("found", 200)
    assert out["claims"][0]["source_url"] == NASA and out["meta"]["mode"] == "golden"


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://science.nasa.gov/mission/webb-old/", ("moved", 301, True)),
        ("https://science.nasa.gov/gone/", ("not_found", 404, True)),
        ("https://example.org/private/", ("blocked", None, False)),
        ("https://example.org/members/", ("blocked", 403, False)),
        ("https://example.org/slow/", ("unaudited", None, False)),
    ],
)
def test_lookup_verdict_follows_the_pages_outcome(
    url: str, expected: tuple[str, int | None, bool], live_from: Any, validate_output: Any
) -> None:
    verdict, status, billed = expected
    live_from("lookup_url_outcomes.json")
    reply = call("source_lookup", claim_or_url=url, ask="When did Webb launch?")
    out = ok("source_lookup", reply, validate_output)
    assert (out["verdict"], out["http_status"]) == (verdict, status)
    assert out["meta"]["billable"] is billed and reply.waive_charge is not billed
    assert out["gaps"]


def test_moved_page_reports_where_it_went(live_from: Any, validate_output: Any) -> None:
    live_from("lookup_url_outcomes.json")
    out = ok(
        "source_lookup",
        call("source_lookup", claim_or_url="https://science.nasa.gov/mission/webb-old/", ask="When did Webb launch?"),
        validate_output,
    )
    assert "https://science.nasa.gov/mission/webb/overview/" in out["gaps"][0]
    assert out["sources"][0]["url"] == "https://science.nasa.gov/mission/webb/overview/"


def test_claim_contradicted_by_a_gated_quote_is_conflicting(live_from: Any, validate_output: Any) -> None:
    live_from("lookup_claim_conflicting.json")
    reply = call("source_lookup", claim_or_url="The James Webb Space Telescope launched in 2019.", ask="Is it true?")
    out = ok("source_lookup", reply, validate_output)
    assert (out["verdict"], out["http_status"]) == ("conflicting", 200)
    assert [c["source_url"] for c in out["claims"]] == [NASA]  # the invented 2019 quote was dropped
    assert any("quote not found" in g for g in out["gaps"])


def test_bad_lookup_input_names_the_field() -> None:
    out = call("source_lookup", claim_or_url="https://x.example/").structured_content
    assert out["code"] == "invalid_arguments" and "ask" in out["error"]


# ---------------------------------------------------------------- compare_options


def test_compare_needs_preview() -> None:
    out = call(
        "compare_options", options=["Hubble", "Webb"], question="which orbits higher?", criteria=["orbit"]
    ).structured_content
    assert out["code"] == "preview_required" and out["error"] == "preview_required" and out["message"]


def test_compare_gates_each_cell(preview_on: None, live_from: Any, validate_output: Any) -> None:
    live_from("compare_hubble_webb.json")
    reply = call(
        "compare_options",
        options=["Hubble", "Webb"],
        question="launch date and orbit",
        criteria=["launch date", "orbit"],
    )
    out = ok("compare_options", reply, validate_output)
    assert out["meta"] == {"mode": "live", "billable": False} and reply.waive_charge
    cells = {(row["option"], row["criterion"]) for row in out["body"]["table"]}
    assert cells == {("Hubble", "launch date"), ("Hubble", "orbit"), ("Webb", "launch date")}
    assert "no verified answer: Webb — orbit" in out["gaps"]
    assert "fail_gate" not in out


def test_compare_bad_input_names_the_field(preview_on: None) -> None:
    out = call("compare_options", options=["only one"], question="which is best?", criteria=["c"]).structured_content
    assert out["code"] == "invalid_arguments" and "options" in out["error"]


# ---------------------------------------------------------------- credits


def test_credits_reports_the_callers_balance(validate_output: Any) -> None:
    out = ok("credits", call("credits", balance=1234), validate_output)
    assert (out["balance_cents"], out["balance_usd"]) == (1234, 12.34)
    assert out["packs"] == {"starter": 1000, "standard": 2500, "pro": 5000}
    assert out["meters_usd"] == {"quick": 0.25, "lite": 0.25, "standard": 0.6, "deep": 1.5} and out["fail_usd"] == 0


def test_credits_without_a_balance_says_null(validate_output: Any) -> None:
    out = ok("credits", call("credits"), validate_output)
    assert out["balance_cents"] is None and out["balance_usd"] is None


def test_credits_says_whether_research_is_live_and_what_is_missing(
    validate_output: Any, monkeypatch: pytest.MonkeyPatch, reload_settings: Any
) -> None:
    for name in ("SEARCH_API_KEY_PARAMETER", "GEMINI_API_KEY_PARAMETER", "LLM_PROVIDER", "SEARCH_PROVIDER"):
        monkeypatch.setenv(name, "")  # as the template leaves them unconfigured
    research = ok("credits", call("credits"), validate_output)["research"]
    assert research["mode"] == "sample"
    assert research["missing"] == ["SEARCH_API_KEY_PARAMETER", "GEMINI_API_KEY_PARAMETER"]
    assert research["prices"] == {"quick": 0, "standard": 0}
    for name, value in LIVE_SETTINGS.items():
        monkeypatch.setenv(name, value)
    reload_settings()
    research = ok("credits", call("credits"), validate_output)["research"]
    assert research["mode"] == "live" and research["missing"] == []
    assert research["prices"] == research["live_prices"] == {"quick": 25, "standard": 60}
    assert (research["search"]["provider"], research["llm"]["model"]) == ("searxng", "qwen")


def test_credits_rejects_arguments() -> None:
    out = call("credits", extra=1).structured_content
    assert out["code"] == "invalid_arguments" and "extra" in out["error"]


BOILING = "What is the boiling point of water at sea level?"


def test_without_providers_the_sample_says_so_and_names_the_settings_for_live(validate_output: Any) -> None:
    """Issue 39: the README's question got a brief about Webb, with nothing saying why up front."""
    out = ok("research_brief", call("research_brief", query=BOILING, depth="quick"), validate_output)
    assert out["tldr"].startswith("Fixed sample, not an answer to your question")
    for setting in ("SEARCH_API_KEY_PARAMETER", "GEMINI_API_KEY_PARAMETER"):
        assert setting in out["tldr"] and setting in out["gaps"][0]


@pytest.mark.parametrize("tool", ["research_brief", "source_lookup"])
def test_without_providers_research_is_free_before_the_call(tool: str) -> None:
    """Priced at 0 when research cannot be live, so the router neither refuses a low balance nor reserves."""
    from mcp_platform.catalogue.registry import load_registry
    from tests.support.router import platform

    plat = platform(credits=10)  # below the live price of 25
    arguments = (
        {"query": BOILING, "depth": "quick"}
        if tool == "research_brief"
        else {"claim_or_url": BOILING, "ask": "Is it 100 °C?"}
    )
    result = plat.call(tool, arguments)
    assert not result.get("isError"), result
    assert result["structuredContent"]["meta"]["billable"] is False
    assert plat.ledger.balance(plat.account_id) == 10
    assert len(plat.ledger.entries(plat.account_id, limit=10)) == 1  # the grant: nothing reserved or refunded
    spec = load_registry().get(tool)
    assert spec is not None and spec.price_for(spec.validate(arguments), providers_configured=False) == 0
    live = providers_configured(ProviderSettings.model_validate(LIVE_SETTINGS))
    assert spec.price_for(spec.validate(arguments), providers_configured=live) == 25


def test_credits_speaks_the_tools_words(validate_output: Any) -> None:
    """meta.mode's words (live|sample) and the depth names the tool takes (quick), beside seed 004's `lite`."""
    out = ok("credits", call("credits"), validate_output)
    assert out["research"]["mode"] == "sample"
    assert out["meters_usd"]["quick"] == out["meters_usd"]["lite"] == 0.25
    assert out["research"]["prices"] == {"quick": 0, "standard": 0}
    assert out["research"]["live_prices"] == {"quick": 25, "standard": 60}
