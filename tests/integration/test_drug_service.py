"""drug_* in-process against the loopback recordings server (RxNav, openFDA, DailyMed), moto for the cache."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from drug_service.app import app
from mcp_platform.contracts._data import NOT_MEDICAL_ADVICE
from tests.support.recorded_apis import Canned

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "drug"


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    reply = app.handle({"tool": tool, "arguments": arguments, "account_id": "acct", "request_id": "r1"})
    return reply.structured_content


def test_search_deduplicates_and_names_candidates(recorded_apis, validate_output) -> None:
    out = validate_output("drug_search", call("drug_search", name="zocor 10 mg"))
    assert [(r["rxcui"], r["name"], r["tty"], r["score"]) for r in out["results"]] == [
        ("104490", "Zocor 10 MG Oral Tablet", "SBD", 75.0),
        ("563653", "Zocor 10 MG Oral Tablet", "SY", 75.0),
    ]
    assert out["notice"] == NOT_MEDICAL_ADVICE and out["source"]["api"] == "RxNav"


def test_search_without_a_match_is_empty(recorded_apis, validate_output) -> None:
    out = validate_output("drug_search", call("drug_search", name="xyzzy"))
    assert (out["count"], out["results"]) == (0, [])


def test_get_groups_related_concepts(recorded_apis, validate_output) -> None:
    out = validate_output("drug_get", call("drug_get", rxcui="866350"))
    assert (out["name"], out["tty"]) == ("Zyrtec Itchy Eye", "BN")
    assert [c["name"] for c in out["ingredients"]] == ["Ketotifen", "Ketotifen Fumarate"]
    assert [c["name"] for c in out["dose_forms"]] == ["Ophthalmic Solution", "Ophthalmic Product"]
    assert "SBD" in out["related"] and "BPCK" not in out["related"]
    assert out["source"]["url"].endswith("searchTerm=866350")
    assert recorded_apis.hits["rxnav"] == 1  # the concept's own name came from allrelated


def test_unknown_rxcui_is_not_found(recorded_apis) -> None:
    out = call("drug_get", rxcui="999999999")
    assert out["code"] == "not_found" and out["error"] == "RxNav has no concept with RxCUI 999999999"


@pytest.mark.parametrize(
    "arguments",
    [{"name": "lipitor"}, {"rxcui": "617314"}, {"set_id": "a60cc18b-0631-4cf0-b021-9f52224ece65"}],
)
def test_label_from_openfda_by_name_rxcui_or_set_id(recorded_apis, validate_output, arguments) -> None:
    out = validate_output(
        "drug_label", call("drug_label", **arguments, sections=["indications_and_usage", "boxed_warning"])
    )
    assert out["label_source"] == "openFDA" and out["label"]["brand_names"] == ["Lipitor"]
    assert [s["name"] for s in out["sections"]] == ["indications_and_usage"]
    assert out["missing_sections"] == ["boxed_warning"]
    assert out["dailymed_url"].endswith("setid=a60cc18b-0631-4cf0-b021-9f52224ece65")
    assert out["source"]["url"] == out["dailymed_url"] and out["notice"] == NOT_MEDICAL_ADVICE


def test_label_falls_back_to_dailymed_by_set_id(recorded_apis, validate_output) -> None:
    out = validate_output(
        "drug_label", call("drug_label", set_id="c6e131fe-e7df-4876-83f7-9156fc4e8228", sections=["contraindications"])
    )
    assert out["label_source"] == "DailyMed" and out["label"]["version"] == "11"
    assert out["sections"][0]["title"] == "4 CONTRAINDICATIONS"
    assert out["source"]["api"] == "DailyMed"
    assert recorded_apis.hits["openfda"] == 1 and recorded_apis.hits["dailymed"] == 1


def test_label_not_found(recorded_apis) -> None:
    out = call("drug_label", name="xyzzy")
    assert out["code"] == "not_found" and out["error"] == "openFDA has no label for a drug named 'xyzzy'"
    missing_spl = call("drug_label", set_id="00000000-0000-0000-0000-000000000000")
    assert missing_spl["code"] == "not_found"
    assert missing_spl["error"] == "DailyMed has no label with SPL set id 00000000-0000-0000-0000-000000000000"


def test_adverse_events_most_reported_first(recorded_apis, validate_output) -> None:
    out = validate_output("drug_adverse_events", call("drug_adverse_events", name="lipitor", top=3))
    assert [r["reaction"] for r in out["reactions"]] == ["MYALGIA", "DRUG INEFFECTIVE", "FATIGUE"]
    assert "not show that the drug caused" in out["caveat"]
    _api, path, _headers = recorded_apis.requests[-1]
    assert "count=patient.reaction.reactionmeddrapt.exact" in path and "limit=3" in path


def test_no_faers_reports_is_an_empty_answer(recorded_apis, validate_output) -> None:
    out = validate_output("drug_adverse_events", call("drug_adverse_events", name="xyzzy"))
    assert out["reactions"] == []


def test_recalls_newest_first_and_empty(recorded_apis, validate_output) -> None:
    out = validate_output("drug_recalls", call("drug_recalls", name="atorvastatin"))
    assert [r["report_date"] for r in out["recalls"]] == ["2024-06-10", "2020-01-15"] and out["total"] == 2
    none = validate_output("drug_recalls", call("drug_recalls", name="xyzzy"))
    assert (none["total"], none["recalls"]) == (0, [])


def test_ndc_from_rxnav_status(recorded_apis, validate_output) -> None:
    out = validate_output("drug_ndc", call("drug_ndc", ndc="00143314501"))
    assert (out["status"], out["active"], out["rxcui"]) == ("ACTIVE", True, "1116191")
    assert out["sources"] == ["RxNav NDC status"] and len(out["history"]) == 2


def test_ndc_merges_rxnav_properties_and_openfda(recorded_apis, validate_output) -> None:
    out = validate_output("drug_ndc", call("drug_ndc", ndc="37000-653-04"))
    assert out["sources"] == ["RxNav NDC properties", "openFDA NDC directory"]
    assert out["labeler"] == "The Procter & Gamble Manufacturing Company"
    assert out["packaging"] == [
        {"package_ndc": "37000-653-04", "description": "118 mL in 1 BOTTLE, PLASTIC (37000-653-04)"}
    ]
    assert out["spl_set_id"] == "f7e829bf-5365-4b18-bfed-3c723cb0e2f6"


def test_unknown_ndc_is_not_found_and_a_bad_one_refused(recorded_apis) -> None:
    out = call("drug_ndc", ndc="99999-999-99")
    assert out["code"] == "not_found" and "National Drug Code 99999-999-99" in out["error"]
    bad = call("drug_ndc", ndc="12-34")
    assert bad["code"] == "invalid_arguments" and "ndc" in bad["error"]
    assert recorded_apis.hits["rxnav"] == 2 and recorded_apis.hits["openfda"] == 1  # only the first call asked


def test_cached_answers_never_reach_openfda_again(recorded_apis) -> None:
    call("drug_adverse_events", name="lipitor", top=3)
    from mcp_platform.backends import reset_clients

    reset_clients()
    again = call("drug_adverse_events", name="lipitor", top=3)
    assert again["source"]["cached"] is True and recorded_apis.hits["openfda"] == 1


def test_openfda_rate_limit_is_waited_out_within_the_deadline(recorded_apis, validate_output) -> None:
    recorded_apis.queue("openfda", Canned(429, {"Retry-After": "1"}, b'{"error":{"code":"OVER_RATE_LIMIT"}}'))
    out = validate_output("drug_recalls", call("drug_recalls", name="atorvastatin"))
    assert len(out["recalls"]) == 2 and recorded_apis.hits["openfda"] == 2


@pytest.mark.parametrize(
    ("status", "fixture", "fragment"),
    [
        (403, "drugsfda__403-API_KEY_INVALID-verapamil.json", "openFDA refused our credentials (HTTP 403)"),
        (400, "drugsfda__400-BAD_REQUEST-verapamil.json", "openFDA refused the request (HTTP 400)"),
    ],
)
def test_openfda_errors_are_upstream_unavailable(recorded_apis, status: int, fixture: str, fragment: str) -> None:
    recorded_apis.queue(
        "openfda", Canned(status, {"Content-Type": "application/json"}, (FIXTURES / fixture).read_bytes())
    )
    out = call("drug_recalls", name="atorvastatin")
    assert out["code"] == "upstream_unavailable" and out["backend"] == "openFDA" and fragment in out["error"]


def test_status(recorded_apis, validate_output) -> None:
    out = validate_output("drug_status", call("drug_status"))
    assert [b["api"] for b in out["backends"]] == ["RxNav", "openFDA", "DailyMed"]
    assert out["backends"][1]["key_configured"] is False and out["backends"][1]["cache_ttl_s"] == 86400


def test_the_polite_rate_spaces_a_tools_requests(recorded_apis) -> None:
    import time

    from drug_service.settings import settings
    from mcp_platform.backends import PoliteLimiter, backend_client

    backend_client("rxnav", settings()).limiter = PoliteLimiter(4, burst=1)  # 4/s: 3 requests need >= 0.5 s
    started = time.monotonic()
    out = call("drug_search", name="zocor 10 mg")
    assert out["count"] == 2 and recorded_apis.hits["rxnav"] == 3
    assert time.monotonic() - started >= 0.45
