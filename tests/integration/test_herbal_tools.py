"""Every herbal tool against the test extract's database, and against a partial build (missing tables).

Facts asserted about names, families and activities are Dr. Duke's (real rows of the dump); facts
about constituents and uses come from the hand-written extracts (tests/fixtures/herbal/README.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import boto3
import pytest

from herbal_service import store
from herbal_service.app import app
from herbal_service.settings import Settings
from herbal_service.store import HerbalDb, use_db
from mcp_platform.contracts._data import NOT_MEDICAL_ADVICE
from tests.herbal_support import DUMP, build_db, ensure_test_db

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path


@pytest.fixture(scope="module", autouse=True)
def herbal_db() -> Iterator[HerbalDb]:
    db = HerbalDb(ensure_test_db())
    use_db(db)
    yield db
    use_db(None)


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    return app.handle({"tool": tool, "arguments": arguments, "account_id": "a", "request_id": "r"}).structured_content


@pytest.fixture
def ok(validate_output):
    def run(tool: str, **arguments: Any) -> dict[str, Any]:
        out = validate_output(tool, call(tool, **arguments))
        if tool != "herbal_status":
            assert out["notice"] == NOT_MEDICAL_ADVICE and out["retrieved_at"].endswith("Z")
            assert out["source"]["url"] == "https://phytochem.nal.usda.gov/"
            assert "self-medication" in out["dataset"]["terms"]
        return out

    return run


def error(tool: str, code: str, **arguments: Any) -> str:
    out = call(tool, **arguments)
    assert out.get("is_error") is True and out["code"] == code, out
    return out["error"]


def test_search_finds_scientific_and_common_names_exact_first(ok) -> None:
    out = ok("herbal_search", name="oregano")
    assert out["results"][0]["scientific_name"] == "Origanum vulgare"  # exact common name "Oregano" first
    assert {r["family"] for r in out["results"]} == {"Lamiaceae"} and out["count"] == 5
    assert ok("herbal_search", name="Hypericum")["results"][0]["common_names"][0] == "Common St. Johnswort"
    assert [r["herb_id"] for r in ok("herbal_search", name="ginkg", limit=1)["results"]] == [442]
    assert "'zzzz'" in error("herbal_search", "not_found", name="zzzz")
    assert "name" in error("herbal_search", "invalid_arguments", name="")


def test_get_gives_names_family_parts_and_uses_by_country(ok) -> None:
    out = ok("herbal_get", herb="St. John's-wort")
    herb = out["herb"]
    assert (herb["herb_id"], herb["family"], herb["genus"], herb["species"]) == (
        491,
        "Clusiaceae",
        "Hypericum",
        "perforatum",
    )
    assert {p["part"]: p["constituents"] for p in out["parts"]} == {"Flower": 3, "Herb": 1, "Leaf": 1}
    assert out["uses"][0] == {"use": "Antidepressant", "countries": ["Germany", "USA"], "reports": 2,
                              "references": ["Jim Duke's personal files."]}  # fmt: skip
    assert "unavailable" not in out and out["dataset"]["tables"] == [
        "FNFTAX",
        "COMMON_NAMES",
        "FARMACY_NEW",
        "ETHNOBOT",
    ]
    wild = ok("herbal_get", herb="wild oregano")
    assert wild["herb"]["herb_id"] == 2085 and [h["herb_id"] for h in wild["also_matched"]] == [2082]
    oregano = ok("herbal_get", herb="Oregano")  # exact: the varieties that only contain the word are not "also"
    assert oregano["herb"]["herb_id"] == 2085 and "also_matched" not in oregano
    partial = ok("herbal_get", herb="Origanum vulg")  # no exact name: the next-best word matches
    assert partial["herb"]["herb_id"] == 2085 and {h["herb_id"] for h in partial["also_matched"]} == {
        2081,
        2082,
        2083,
        2084,
    }
    assert ok("herbal_get", herb="10000001")["herb"]["scientific_name"] == "Sutherlandia frutescens"
    assert "herbal_search" in error("herbal_get", "not_found", herb="Nonexistia imaginaria")
    assert "herb_id 77" in error("herbal_get", "not_found", herb="77")


def test_constituents_with_parts_amounts_and_references(ok) -> None:
    out = ok("herbal_constituents", herb="Hypericum perforatum")
    assert out["count"] == 5 and out["truncated"] is False and out["dataset"]["tables"][0] == "FARMACY_NEW"
    first = out["constituents"][0]
    assert (first["chemical"], first["part"], first["amount_low"], first["amount_high"], first["unit"]) == (
        "HYPERFORIN", "Flower", 20000.0, 45000.0, "ppm")  # fmt: skip
    assert ok("herbal_constituents", herb="491", part="leaf")["constituents"] == [
        {"chemical": "HYPERICIN", "part": "Leaf", "part_code": "LF", "amount_low": 50.0, "amount_high": 1000.0,
         "unit": "ppm", "trace": False, "less_than": False, "reference": "15", "citation": "Jim Duke's personal files."}
    ]  # fmt: skip
    assert ok("herbal_constituents", herb="491", part="FL", limit=1)["truncated"] is True
    garlic = ok("herbal_constituents", herb="Garlic")
    assert garlic["dataset"]["tables"][0] == "FARMACY" and {c["chemical"] for c in garlic["constituents"]} == {
        "AJOENE", "ALLICIN", "DIALLYL-DISULFIDE"}  # fmt: skip
    assert "Flower (FL)" in error("herbal_constituents", "not_found", herb="491", part="Root")
    assert "not a plant part" in error("herbal_constituents", "invalid_arguments", herb="491", part="Wing")
    assert "no constituents" in error("herbal_constituents", "not_found", herb="Okra")


def test_by_activity_ranks_herbs_by_constituents_having_it(ok) -> None:
    out = ok("herbal_by_activity", activity="antiaggregant")
    assert out["activity"] == "Antiaggregant" and out["count"] >= 5
    top = out["results"][0]
    assert (top["scientific_name"], top["constituents"], top["chemicals"]) == (
        "Ginkgo biloba", 3, ["GINKGOLIDE-B", "KAEMPFEROL", "QUERCETIN"])  # fmt: skip
    counts = [r["constituents"] for r in out["results"]]
    assert counts == sorted(counts, reverse=True)
    assert ok("herbal_by_activity", activity="MAO inhibitor")["activity"] == "MAO-Inhibitor"
    assert ok("herbal_by_activity", activity="Insectifuge", limit=1)["count"] >= 1
    assert "not an activity" in error("herbal_by_activity", "not_found", activity="Flying")
    several = call("herbal_by_activity", activity="inhibitor")
    assert several["code"] == "not_found" and "MAO-Inhibitor" in several["suggestions"]


def test_interactions_group_constituent_activities_into_cautions(ok) -> None:
    out = ok("herbal_interactions", herb="St. John's-wort")
    by_caution = {c["caution"]: c for c in out["cautions"]}
    assert {"bleeding", "mao_inhibition", "sedation", "cyp_inhibition", "cyp_induction"} <= set(by_caution)
    hypericin = [f for f in by_caution["mao_inhibition"]["findings"] if f["chemical"] == "HYPERICIN"]
    assert hypericin and hypericin[0]["parts"] == ["Flower", "Leaf"] and hypericin[0]["reference"]
    assert "warfarin" in by_caution["bleeding"]["drugs"]
    assert out["count"] == sum(c["total"] for c in out["cautions"]) >= sum(len(c["findings"]) for c in out["cautions"])
    okra = ok("herbal_interactions", herb="Abelmoschus esculentus")
    assert okra["cautions"] == [] and "not evidence of safety" in okra["message"]


def test_status_lists_tables_and_row_counts(ok) -> None:
    out = ok("herbal_status")
    tables = {t["table"]: t["rows"] for t in out["tables"]}
    assert tables["FNFTAX"] == 15 and tables["FARMACY_NEW"] == 27 and tables["ETHNOBOT"] == 8
    assert (out["complete"], out["missing_tables"], out["herbs"]) == (True, [], 16)


@pytest.fixture
def partial(tmp_path: Path) -> Iterator[HerbalDb]:
    db = HerbalDb(build_db(tmp_path / "partial.sqlite", DUMP))
    use_db(db)
    yield db
    use_db(HerbalDb(ensure_test_db()))


@pytest.mark.parametrize(
    ("tool", "arguments", "tables"),
    [
        ("herbal_constituents", {"herb": "ginger"}, "FARMACY_NEW (or the older FARMACY)"),
        ("herbal_by_activity", {"activity": "Sedative"}, "FARMACY_NEW (or the older FARMACY)"),
        ("herbal_interactions", {"herb": "ginger"}, "FARMACY_NEW (or the older FARMACY)"),
    ],
)
def test_a_tool_whose_table_is_missing_says_which_and_how_to_build_it(partial, tool, arguments, tables) -> None:
    out = call(tool, **arguments)
    assert out["code"] == "missing_table" and out["missing_tables"] == ["FARMACY_NEW"]
    assert tables in out["error"] and "make herbal-db DUKE_DUMP=" in out["error"] and "24660351" in out["error"]


def test_a_partial_build_still_answers_names_and_says_what_it_lacks(partial, ok) -> None:
    out = ok("herbal_get", herb="ginger")
    assert out["parts"] == [] and out["uses"] == []
    assert out["unavailable"] == [
        {"table": "FARMACY_NEW", "fields": ["parts"]},
        {"table": "ETHNOBOT", "fields": ["uses"]},
    ]
    status = ok("herbal_status")
    assert status["complete"] is False and status["missing_tables"] == ["FARMACY_NEW", "FARMACY", "ETHNOBOT"]
    assert "DUKE_DUMP" in status["how_to_build"]


def test_the_database_comes_from_s3_on_a_cold_start(aws: None, tmp_path: Path) -> None:
    client = boto3.client("s3")
    client.create_bucket(Bucket="herbal-data")
    client.upload_file(str(ensure_test_db()), "herbal-data", "herbal/v1.sqlite")
    source = store.configured_source(
        Settings(herbal_db_bucket="herbal-data", herbal_db_key="herbal/v1.sqlite", herbal_db_tmp_dir=str(tmp_path))
    )
    assert source.path == tmp_path / "herbal-v1.sqlite"
    from mcp_platform.storage.readonly_db import fetch

    assert HerbalDb(fetch(store.CONFIG, source, client)).meta["schema_version"] == store.SCHEMA_VERSION
