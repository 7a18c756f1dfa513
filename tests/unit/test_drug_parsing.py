"""RxNav, openFDA and DailyMed parsers against every relevant real recording and each empty shape."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from drug_service import parsing
from mcp_platform.contracts.drug import DEFAULT_SECTIONS, LABEL_SECTIONS

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "drug"
INDEX = json.loads((FIXTURES / "INDEX.json").read_text())


def load(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text())


def test_approximate_candidates_are_strings_turned_numbers_best_first() -> None:
    assert parsing.approximate_candidates(load("approximate_term__zocor-10-mg.json")) == [
        {"rxcui": "104490", "rank": 1, "score": 75.0, "name": None},
        {"rxcui": "563653", "rank": 1, "score": 75.0, "name": None},
    ]


def test_approximate_candidates_are_deduplicated_keeping_the_best_rank_and_current_names() -> None:
    data = {
        "approximateGroup": {
            "candidate": [
                {"rxcui": "2", "rank": "3", "score": "7.5"},
                {"rxcui": "1", "rank": "2", "score": "9.1", "name": "a", "source": "RXNORM"},
                {"rxcui": "2", "rank": "1", "score": "8.0"},
            ]
        }
    }
    assert [(c["rxcui"], c["rank"], c["name"]) for c in parsing.approximate_candidates(data)] == [
        ("2", 1, None),
        ("1", 2, "a"),
    ]


def test_empty_rxnav_shapes() -> None:
    assert parsing.approximate_candidates(load("hw_approximate__no-match.json")) == []
    assert parsing.approximate_candidates({"approximateGroup": {"inputTerm": "x", "comment": ""}}) == []
    assert parsing.concept_properties(load("hw_properties__unknown.json")) is None
    assert parsing.related_by_tty(load("hw_allrelated__unknown.json")) == {}
    assert parsing.ndc_status(load("hw_ndcstatus__unknown.json")) is None
    assert parsing.ndc_properties(load("hw_ndcproperties__none.json")) is None


def test_allrelated_groups_without_members_are_dropped() -> None:
    related = parsing.related_by_tty(load("allrelated__866350.json"))
    assert "BPCK" not in related and "GPCK" not in related and "MIN" not in related
    assert related["BN"] == [{"rxcui": "866350", "name": "Zyrtec Itchy Eye", "tty": "BN"}]
    assert related["IN"] == [{"rxcui": "6146", "name": "Ketotifen", "tty": "IN"}]
    assert related["PIN"][0]["name"] == "Ketotifen Fumarate"
    assert related["DF"][0]["name"] == "Ophthalmic Solution"


def test_drugs_answer_reads_like_allrelated() -> None:
    related = parsing.related_by_tty(load("drugs__cymbalta.json"))
    assert [c["rxcui"] for c in related["SBD"]] == ["596928", "596932", "615186"]


def test_ndc_status_and_properties() -> None:
    status = parsing.ndc_status(load("ndc_status__00143314501.json"))
    assert status is not None
    assert (status["status"], status["active"], status["rxcui"]) == ("ACTIVE", True, "1116191")
    assert status["concept_name"] == "Ephedrine sulfate 25 MG Oral Capsule"
    assert status["history"][1] == {
        "activeRxcui": "1116191",
        "originalRxcui": "198918",
        "startDate": "200706",
        "endDate": "201107",
    }
    props = parsing.ndc_properties(load("ndc_properties__37000-653-04.json"))
    assert props == {
        "ndc10": "37000-653-04",
        "ndc11": "37000065304",
        "rxcui": "211915",
        "spl_set_id": "f7e829bf-5365-4b18-bfed-3c723cb0e2f6",
        "labeler": "The Procter & Gamble Manufacturing Company",
        "marketing_category": "OTC monograph final",
        "marketing_status": "completed",
        "product_type": "HUMAN OTC DRUG LABEL",
        "packaging": [{"description": "118 mL in 1 BOTTLE, PLASTIC"}],
    }


@pytest.mark.parametrize(
    ("name", "brand", "has_boxed_warning"),
    [
        ("label__lipitor.json", "Lipitor", False),
        ("label__zoloft.json", "Zoloft", True),
        ("label__citalopram.json", "Citalopram", True),
    ],
)
def test_every_openfda_label(name: str, brand: str, has_boxed_warning: bool) -> None:
    data = load(name)
    assert parsing.fda_total(data) >= 1
    result = parsing.fda_results(data)[0]
    info = parsing.label_info(result)
    assert info["brand_names"] == [brand] and len(info["set_id"]) == 36
    sections, missing = parsing.label_sections(result, DEFAULT_SECTIONS, 100)
    assert ("boxed_warning" in missing) is not has_boxed_warning
    assert "warnings" in missing  # PLR labels use warnings_and_cautions
    for section in sections:
        assert section["text"] and len(section["text"]) <= 100
        assert section["truncated"] is (len("\n\n".join(result[section["name"]])) > 100)


def test_openfda_not_found_and_errors() -> None:
    for name in ("drugsfda__404-NOT_FOUND-3129084.json", "drugsfda__404-NOT_FOUND-naproxen-skip500.json"):
        assert parsing.fda_is_no_match(404, load(name))
    assert not parsing.fda_is_no_match(400, load("drugsfda__400-BAD_REQUEST-verapamil.json"))
    assert not parsing.fda_is_no_match(404, {"error": {"code": "SERVER_ERROR"}})
    assert parsing.fda_total(load("drugsfda__semaglutide-limit2.json")) >= 2
    assert len(parsing.fda_results(load("drugsfda__semaglutide-page2-limit2.json"))) == 1  # the last page
    assert len(parsing.fda_results(load("drugsfda__tirzepatide-limit1.json"))) == 1


@pytest.mark.parametrize(
    ("fixture", "schema"),
    [
        ("hw_enforcement__atorvastatin.json", "recall_schema.json"),
        ("hw_ndc__37000-653.json", "ndc_schema.json"),
    ],
)
def test_hand_written_openfda_results_follow_fdas_schema(fixture: str, schema: str) -> None:
    validator = jsonschema.Draft7Validator(load(schema), format_checker=None)
    for result in load(fixture)["results"]:
        validator.validate(result)


def test_reaction_counts_most_first() -> None:
    rows = parsing.reactions(load("hw_event_count__lipitor.json"))
    assert [r["count"] for r in rows] == sorted((r["count"] for r in rows), reverse=True)
    assert rows[0] == {"reaction": "MYALGIA", "count": 9876}


def test_recalls_newest_first_with_iso_dates() -> None:
    rows = parsing.recalls(load("hw_enforcement__atorvastatin.json"))
    assert [r["report_date"] for r in rows] == ["2024-06-10", "2020-01-15"]
    assert rows[0]["classification"] == "Class III" and rows[0]["recall_number"] == "D-0002-2024"


def test_ndc_product() -> None:
    product = parsing.ndc_product(load("hw_ndc__37000-653.json")["results"][0])
    assert product["packaging"][0] == {
        "package_ndc": "37000-653-04",
        "description": "118 mL in 1 BOTTLE, PLASTIC (37000-653-04)",
    }
    assert product["spl_set_id"] == "f7e829bf-5365-4b18-bfed-3c723cb0e2f6" and product["routes"] == ["ORAL"]


SPL = {
    # file: (set id, version, product type, title or None, sections present among all known)
    "spl_xml__cough-otc-00f66f25-3469-4c16-9baf-fba21e9628bd.xml": ("1", "HUMAN OTC DRUG LABEL", "Drug Facts", 12),
    "spl_xml__lipitor-orig-c6e131fe-e7df-4876-83f7-9156fc4e8228.xml": (
        "11",
        "HUMAN PRESCRIPTION DRUG LABEL",
        "LIPITOR",
        15,
    ),
    "spl_xml__lipitor-repack-17a163ef-b349-4e32-bc8c-b02bac7f65d6.xml": (
        "8",
        "HUMAN PRESCRIPTION DRUG LABEL",
        "LIPITOR",
        15,
    ),
    "spl_xml__no-title-0027b8a3-73bf-4005-a7e3-b035f451a861.xml": ("1", "HUMAN PRESCRIPTION DRUG LABEL", None, 11),
}


@pytest.mark.parametrize("name", sorted(SPL))
def test_every_dailymed_spl(name: str) -> None:
    version, product_type, title, found = SPL[name]
    document = parsing.spl_document((FIXTURES / name).read_bytes(), list(LABEL_SECTIONS), LABEL_SECTIONS, 20000)
    info = document["info"]
    assert info["set_id"] == name.removesuffix(".xml")[-36:]
    assert (info["version"], info["product_type"]) == (version, product_type)
    assert (title is None and "title" not in info) or title in info["title"]
    assert len(document["sections"]) == found
    assert len(document["sections"]) + len(document["missing"]) == len(LABEL_SECTIONS)
    for section in document["sections"]:
        assert section["text"].strip() and not section["truncated"]


def test_spl_sections_leave_out_highlights_and_own_title() -> None:
    document = parsing.spl_document(
        (FIXTURES / "spl_xml__lipitor-orig-c6e131fe-e7df-4876-83f7-9156fc4e8228.xml").read_bytes(),
        ["dosage_and_administration"],
        LABEL_SECTIONS,
        20000,
    )
    [section] = document["sections"]
    assert section["title"] == "2 DOSAGE AND ADMINISTRATION"
    assert section["text"].startswith("2.1 Hyperlipidemia")
    assert "Dose range: 10 to 80 mg once daily (2.1)" not in section["text"]  # the Highlights excerpt


def test_every_real_recording_copied_is_tested() -> None:
    real = {e["file"] for e in INDEX if not e.get("hand_written")}
    tested = {
        "approximate_term__zocor-10-mg.json",
        "allrelated__866350.json",
        "drugs__cymbalta.json",
        "ndc_status__00143314501.json",
        "ndc_properties__37000-653-04.json",
        "label__lipitor.json",
        "label__zoloft.json",
        "label__citalopram.json",
        "drugsfda__400-BAD_REQUEST-verapamil.json",
        "drugsfda__403-API_KEY_INVALID-verapamil.json",
        "drugsfda__404-NOT_FOUND-3129084.json",
        "drugsfda__404-NOT_FOUND-naproxen-skip500.json",
        "drugsfda__semaglutide-limit2.json",
        "drugsfda__semaglutide-page2-limit2.json",
        "drugsfda__tirzepatide-limit1.json",
        *SPL,
    }
    assert real == tested


def test_single_elements_not_wrapped_in_lists_are_read_too() -> None:
    data = {"allRelatedGroup": {"conceptGroup": {"tty": "IN", "conceptProperties": {"rxcui": "1", "name": "a"}}}}
    assert parsing.related_by_tty(data) == {"IN": [{"rxcui": "1", "name": "a", "tty": "IN"}]}
    single = {"approximateGroup": {"candidate": {"rxcui": "9", "rank": "1", "score": "5"}}}
    assert [c["rxcui"] for c in parsing.approximate_candidates(single)] == ["9"]
