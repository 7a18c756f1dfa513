"""The GBIF and POWO parsers against every recording of the operations the plant tools call.

tests/fixtures/plant/INDEX.json lists them (real ones copied from ../shared/recordings, hand-written
ones marked); each kind (ok, empty, not_found) of each operation is checked for its shape.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from plant_service import gbif, powo

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "plant"
INDEX = json.loads((FIXTURES / "INDEX.json").read_text())


def _entries(operation: str, api: str) -> list[dict[str, Any]]:
    prefix = "hw_" + operation + "__"
    picked = [e for e in INDEX if e.get("operation", "") == operation or e["file"].startswith(prefix)]
    return [e for e in picked if (e.get("api") or ("gbif" if "gbif" in e.get("url", "") else "powo")) == api]


def _load(entry: dict[str, Any]) -> Any:
    return json.loads((FIXTURES / entry["file"]).read_text(encoding="utf-8"))


def test_the_fixtures_are_the_recordings_they_say() -> None:
    import hashlib

    for entry in INDEX:
        assert hashlib.sha256((FIXTURES / entry["file"]).read_bytes()).hexdigest() == entry["sha256"], entry["file"]
        assert entry.get("hand_written") or entry["copied_from"].endswith(entry["file"])


@pytest.mark.parametrize("entry", _entries("match", "gbif"), ids=lambda e: e["file"])
def test_match(entry: dict[str, Any]) -> None:
    matches, note = gbif.parse_match(_load(entry))
    if entry["kind"] == "empty":
        assert matches == [] and note == "No match because of too little confidence"
    else:
        assert note is None and matches[0].usage_key == 9206251 and matches[0].match_type == "EXACT"
        assert (matches[0].rank, matches[0].status, matches[0].confidence) == ("SPECIES", "ACCEPTED", 99)


def test_match_alternatives_come_after_the_best_by_confidence() -> None:
    best = _load(_entries("match", "gbif")[-1]) | {"usageKey": 1}
    data = {**best, "alternatives": [{**best, "usageKey": 2, "confidence": 10}, {**best, "usageKey": 3, "confidence": 90},
                                     {"matchType": "NONE", "confidence": 100}]}  # fmt: skip
    assert [m.usage_key for m in gbif.parse_match(data)[0]] == [1, 3, 2]


@pytest.mark.parametrize("entry", _entries("usage", "gbif"), ids=lambda e: e["file"])
def test_usage(entry: dict[str, Any]) -> None:
    data = _load(entry)
    if entry["kind"] == "not_found":
        assert data["status"] == 404 and "Entity not found" in data["message"]
        return
    taxon = gbif.parse_usage(data)
    assert taxon["key"] == data["key"] and taxon["scientific_name"]
    ranks = [r.rank for r in taxon["classification"]]
    assert ranks == [r for r in gbif.RANKS if r in ranks]  # kingdom first, never the taxon itself
    assert all(r.key != data["key"] for r in taxon["classification"])
    if data["key"] == 1:
        assert (taxon["rank"], taxon["classification"], taxon["authorship"]) == ("KINGDOM", [], None)


@pytest.mark.parametrize("entry", _entries("synonyms", "gbif"), ids=lambda e: e["file"])
def test_synonyms(entry: dict[str, Any]) -> None:
    data = _load(entry)
    synonyms = gbif.parse_synonyms(data)
    assert len(synonyms) == len(data["results"])
    if synonyms:
        assert synonyms[0].scientific_name == "Fringilla domestica Linnaeus, 1758"
        assert synonyms[0].status == "HOMOTYPIC_SYNONYM"


@pytest.mark.parametrize("entry", _entries("vernacular_names", "gbif"), ids=lambda e: e["file"])
def test_vernacular_names(entry: dict[str, Any]) -> None:
    data = _load(entry)
    names = gbif.parse_vernacular(data)
    if entry["kind"] == "empty":
        assert names == {} and gbif.page(data) == ([], False)
        return
    flat = [n for group in names.values() for n in group]
    assert len(flat) == len(set(flat)) or len(names) > 1  # once per language
    if data["results"][0]["taxonKey"] == 5231190:
        assert names["cym"][:2] == ["Adar y To", "Aderyn y To"] and "English sparrow" in names["und"]
        assert gbif.page(data)[1] is True  # endOfRecords false: more pages


@pytest.mark.parametrize("entry", _entries("distributions", "gbif"), ids=lambda e: e["file"])
def test_gbif_distributions(entry: dict[str, Any]) -> None:
    native, introduced, other = gbif.parse_distributions(_load(entry))
    if entry["file"] == "distributions__5231190.json":
        assert {"name": "Reunion", "code": "France", "establishment": "introduced"} in [
            r.model_dump() for r in introduced
        ]
        assert any(r.name == "Pacífico" and r.establishment is None for r in other)
        names = [(r.name, r.establishment) for r in native + introduced + other]
        assert len(names) == len(set(names))
    else:
        assert (native, introduced, other) == ([], [], [])


@pytest.mark.parametrize("entry", _entries("search", "powo"), ids=lambda e: e["file"])
def test_powo_search(entry: dict[str, Any]) -> None:
    data = _load(entry)
    results = powo.results(data)
    if entry["kind"] == "empty":
        assert "results" not in data and results == [] and powo.link(data, "Poa annua") is None
        return
    assert len(results) == min(data["perPage"], data["totalResults"]) or "cursor" in entry["url"] or len(results) > 0
    for result in results:
        assert result["fqId"].startswith("urn:lsid:ipni.org:names:")
    accepted = next(r for r in results if r.get("accepted"))
    assert powo.link(data, accepted["name"].upper()) == accepted["fqId"]
    if entry["file"] == "search__genus-Poa-accepted-names.json":
        assert powo.link(data, "Poa  annua") == "urn:lsid:ipni.org:names:320035-2"
    synonym = next((r for r in results if not r.get("accepted")), None)
    if synonym is not None and not any(r.get("accepted") and r["name"] == synonym["name"] for r in results):
        assert powo.link(data, synonym["name"]) is None  # a synonym is not linked


@pytest.mark.parametrize("entry", _entries("taxon", "powo"), ids=lambda e: e["file"])
def test_powo_taxon(entry: dict[str, Any]) -> None:
    data = _load(entry)
    native, introduced, other = powo.parse_distribution(data)
    if entry["kind"] == "not_found":
        assert data == {"error": "Not Found"} and (native, introduced, other) == ([], [], [])
    elif "distribution" in entry["url"]:
        assert len(native) == len(data["distribution"]["natives"]) and native[0].code == "AFG"
        assert native[0].model_dump() == {"name": "Afghanistan", "code": "AFG", "establishment": "Native"}
        assert introduced and all(r.establishment == "Introduced" for r in introduced)
    else:
        assert (native, introduced, other) == ([], [], [])  # asked without fields=distribution


def test_powo_lists_beyond_natives_and_introduced_go_to_other() -> None:
    data = {"distribution": {"natives": [], "extinct": [{"name": "Ascension", "tdwgCode": "ASC"}]}}
    assert powo.parse_distribution(data)[2][0].model_dump() == {
        "name": "Ascension",
        "code": "ASC",
        "establishment": "extinct",
    }
