"""DSLD and ODS parsers against every real DSLD label recording and each empty shape."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mcp_platform.contracts._data import NOT_MEDICAL_ADVICE
from mcp_platform.contracts.supplement import SupplementLabelOutput
from supplement_service import parsing

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "supplement"
INDEX = json.loads((FIXTURES / "INDEX.json").read_text())
LABELS = sorted(e["file"] for e in INDEX if e["file"].startswith("label__"))


def load(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text())


def walk(ingredients: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [row for i in ingredients for row in (i, *walk(i["nested"]))]


def test_all_21_recorded_labels_are_here() -> None:
    assert len(LABELS) == 21


@pytest.mark.parametrize("name", LABELS)
def test_every_recorded_label_parses_into_the_output_model(name: str) -> None:
    raw = load(name)
    label = parsing.label(raw)
    SupplementLabelOutput(**label, notice=NOT_MEDICAL_ADVICE, source={"api": "NIH DSLD", "url": "u"}, retrieved_at="t")
    assert label["dsld_id"] == raw["id"] and label["product"] == raw["fullName"]
    assert label["on_market"] is (raw["offMarket"] == 0)
    assert len(label["ingredients"]) == len(raw["ingredientRows"])
    assert label["serving_sizes"] and all(s.strip() for s in label["serving_sizes"])
    for row in walk(label["ingredients"]):
        for amount in row["amounts"]:
            assert ("quantity" in amount) == ("unit" in amount)  # NP: neither


def test_calcium_with_vitamin_d3_in_detail() -> None:
    label = parsing.label(load("label__1225.json"))
    assert (label["brand"], label["form"], label["servings_per_container"]) == (
        "Vitamin World",
        "Softgel Capsule",
        "100",
    )
    assert label["serving_sizes"] == ["2 Softgel(s)"] and label["on_market"] is False
    assert label["net_contents"] == ["200 Rapid Release Softgel(s)"]
    assert label["other_ingredients"][:2] == ["Soybean Oil", "Gelatin"]
    calories = label["ingredients"][0]
    assert calories["amounts"] == [
        {"unit": "{Calories}", "quantity": 15.0, "operator": "=", "per_serving": "2 Softgel(s)", "daily_values": []}
    ]


def test_not_provided_amounts_inside_blends_carry_no_quantity() -> None:
    label = parsing.label(load("label__216782.json"))
    assert label["serving_sizes"] == ["1-2 Veggie Cap(s)"]
    assert any(row["nested"] for row in label["ingredients"])  # the blend holds its herbs
    valerian = next(row for row in walk(label["ingredients"]) if row["name"] == "Valerian")
    assert "quantity" not in valerian["amounts"][0] and "unit" not in valerian["amounts"][0]
    dv = next(row for row in walk(label["ingredients"]) if row["name"] == "Proprietary Blend")["amounts"][0][
        "daily_values"
    ]
    assert dv[0]["footnote"] == "Daily Value not established" and "percent" not in dv[0]


def test_less_than_operator_is_kept() -> None:
    sugar = next(row for row in walk(parsing.label(load("label__56730.json"))["ingredients"]) if row["name"] == "Sugar")
    assert sugar["amounts"][0]["operator"] == "<"


def test_search_hits_and_the_empty_search() -> None:
    hits, total = parsing.search_hits(load("hw_search__melatonin.json"))
    assert total == 3 and [h["dsld_id"] for h in hits] == [332395, 277770, 219624]
    assert hits[0] == {
        "dsld_id": 332395,
        "product": "Melatonin 2 mg",
        "brand": parsing.label(load("label__332395.json"))["brand"],
        "form": parsing.label(load("label__332395.json"))["form"],
        "on_market": True,
        "entry_date": load("label__332395.json")["entryDate"],
    }
    assert parsing.search_hits(load("hw_search__empty.json")) == ([], 0)
    assert parsing.search_hits({"hits": {"hits": [{"_id": "5", "_source": {"fullName": "X"}}]}})[0] == [
        {"dsld_id": 5, "product": "X"}
    ]


def test_fact_sheet_summary_and_intake_tables() -> None:
    sheet = parsing.fact_sheet((FIXTURES / "hw_ods__VitaminD.xml").read_bytes())
    assert sheet is not None
    assert sheet["title"] == "Vitamin D - Health Professional Fact Sheet"
    assert sheet["summary"].startswith("Vitamin D (also referred to as calciferol)")
    assert sheet["rda"]["caption"].startswith("Table 2: Recommended Dietary Allowances")
    assert sheet["rda"]["columns"] == ["Age", "Male", "Female", "Pregnancy", "Lactation"]
    assert sheet["rda"]["rows"][3][:2] == ["19-70 years", "15 mcg (600 IU)"]
    assert sheet["ul"]["rows"][-1] == ["19+ years", "100 mcg (4,000 IU)", "100 mcg (4,000 IU)"]
    assert sheet["last_reviewed"] == "2024-07-26"


@pytest.mark.parametrize(
    "body", [b"<Factsheet><Title></Title><Content></Content></Factsheet>", b"<html>Not Found", b""]
)
def test_no_fact_sheet(body: bytes) -> None:
    assert parsing.fact_sheet(body) is None


@pytest.mark.parametrize(
    ("name", "resource"),
    [("vitamin D", "VitaminD"), ("omega-3 fatty acids", "Omega3FattyAcids"), ("Magnesium", "Magnesium")],
)
def test_resource_names(name: str, resource: str) -> None:
    assert parsing.resource_name(name) == resource


def test_sparse_label_fields_do_not_break_the_parser() -> None:
    label = parsing.label(
        {
            "id": 7,
            "fullName": "Sparse",
            "offMarket": "1",
            "physicalState": None,
            "servingSizes": [{"minQuantity": None, "maxQuantity": 2, "unit": "Tablet(s)"}, {"unit": "Scoop(s)"}],
            "servingsPerContainer": None,
            "netContents": [{"quantity": 60}],
            "ingredientRows": [{"name": "Zinc", "quantity": {"quantity": 15, "unit": "mg", "operator": "="}}],
            "otheringredients": None,
        }
    )
    assert label["on_market"] is False and label["serving_sizes"] == ["2 Tablet(s)", "Scoop(s)"]
    assert label["net_contents"] == [] and "form" not in label
    assert label["ingredients"][0]["amounts"][0]["quantity"] == 15.0
