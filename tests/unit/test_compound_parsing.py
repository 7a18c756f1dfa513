"""PubChem parsers against every real PubChem recording (tests/fixtures/compound) and each empty shape."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from compound_service import parsing

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "compound"
INDEX = json.loads((FIXTURES / "INDEX.json").read_text())
REAL = [e["file"] for e in INDEX if not e.get("hand_written")]


def load(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text())


def test_every_real_recording_is_covered() -> None:
    assert {f for f in REAL if f.startswith("pug_view__")} == set(GHS_EXPECTED)
    assert {f for f in REAL if f.startswith("compound_record__")} == set(RECORD_CIDS)
    assert {f for f in REAL if f.startswith("property__")} == {"property__cid-2244-aspirin-all.json"}


GHS_EXPECTED = {
    # file: (title, strongest signal, pictogram codes, number of sources)
    "pug_view__cid-174-ethyleneglycol.json": ("Ethylene Glycol", "Danger", ["GHS07", "GHS08"], 7),
    "pug_view__cid-241-benzene.json": ("Benzene", "Danger", ["GHS02", "GHS07", "GHS08", "GHS09"], 7),
    "pug_view__cid-4-1-amino-2-propanol.json": ("1-Amino-2-propanol", "Danger", ["GHS05", "GHS07"], 4),
    "pug_view__cid-5742-guanidine-hydrochloride.json": ("Guanidine hydrochloride", "Warning", ["GHS07"], 4),
    "pug_view__cid-7840-1-bromopropane.json": ("1-Bromopropane", "Danger", ["GHS02", "GHS07", "GHS08"], 7),
    "pug_view__cid-8057-bromopentane.json": ("1-Bromopentane", "Warning", ["GHS02", "GHS07", "GHS09"], 1),
    "pug_view__cid-8471-triethylamine.json": (
        "Triethylamine",
        "Danger",
        ["GHS02", "GHS05", "GHS06", "GHS07", "GHS08", "GHS09"],
        6,
    ),
}


@pytest.mark.parametrize("name", sorted(GHS_EXPECTED))
def test_ghs_of_every_pug_view_record(name: str) -> None:
    data = load(name)
    classifications = parsing.ghs_classifications(data)
    title, signal, pictograms, sources = GHS_EXPECTED[name]
    assert parsing.record_title(data) == title
    assert parsing.strongest_signal(classifications) == signal
    assert [p["code"] for p in parsing.all_pictograms(classifications)] == pictograms
    assert len(classifications) == sources
    assert parsing.safety_status(classifications) == "classified"
    references = {r["ReferenceNumber"] for r in data["Record"]["Reference"]}
    for classification in classifications:
        assert classification["reference_number"] in references and classification["source"]
        for statement in classification["hazard_statements"]:
            assert statement["code"].startswith(("H", "EUH")) and statement["text"]
        assert all(code.startswith("P") for code in classification["precautionary_codes"])


def test_bromopentane_in_detail() -> None:
    [echa] = parsing.ghs_classifications(load("pug_view__cid-8057-bromopentane.json"))
    assert echa["source"] == "European Chemicals Agency (ECHA)"
    assert echa["pictograms"] == [
        {"code": "GHS02", "name": "Flammable"},
        {"code": "GHS07", "name": "Irritant"},
        {"code": "GHS09", "name": "Environmental Hazard"},
    ]
    assert echa["hazard_statements"][2] == {
        "code": "H319",
        "text": "Causes serious eye irritation",
        "hazard_class": "Warning Serious eye damage/eye irritation",
        "share_percent": 91.2,
    }
    assert echa["hazard_statements"][-1]["hazard_class"] == "Hazardous to the aquatic environment, long-term hazard"
    assert echa["precautionary_codes"][:3] == ["P210", "P233", "P240"]
    assert "P303+P361+P353" in echa["precautionary_codes"] and echa["precautionary_codes"][-1] == "P501"
    assert echa["notifications"].startswith("Aggregated GHS information provided per 68 reports")


def test_not_classified_sources_keep_their_words() -> None:
    classifications = parsing.ghs_classifications(load("pug_view__cid-174-ethyleneglycol.json"))
    noted = [c for c in classifications if c.get("notes")]
    assert noted and "Not Classified" in noted[0]["notes"]
    assert not noted[0]["hazard_statements"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "H302 (> 99.9%): Harmful if swallowed [Warning Acute toxicity, oral]",
            {
                "code": "H302",
                "text": "Harmful if swallowed",
                "hazard_class": "Warning Acute toxicity, oral",
                "share_percent": 99.9,
            },
        ),
        (
            "H372 **: Causes damage to organs [Danger Specific target organ toxicity, repeated exposure]",
            {
                "code": "H372",
                "text": "Causes damage to organs",
                "hazard_class": "Danger Specific target organ toxicity, repeated exposure",
                "minimum_classification": True,
            },
        ),
        (
            "H300+H310: Fatal if swallowed or in contact with skin",
            {"code": "H300+H310", "text": "Fatal if swallowed or in contact with skin"},
        ),
        ("Not Classified", None),
    ],
)
def test_hazard_statement_forms(text: str, expected: dict[str, Any] | None) -> None:
    assert parsing.hazard_statement(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("H300:", {"code": "H300", "text": ""}),
        ("H300:   ", {"code": "H300", "text": ""}),
        ("H300: [Danger]", {"code": "H300", "text": "", "hazard_class": "Danger"}),
        ("H300:  Fatal  if  swallowed \n", {"code": "H300", "text": "Fatal  if  swallowed"}),
        ("H300: Fatal\t[Danger]\t", {"code": "H300", "text": "Fatal", "hazard_class": "Danger"}),
        ("H300: Fatal [a] and [b] ", {"code": "H300", "text": "Fatal [a] and", "hazard_class": "b"}),
        ("H300: Fatal [Danger] swallowed", {"code": "H300", "text": "Fatal [Danger] swallowed"}),
        ("H300: Fatal [Danger", {"code": "H300", "text": "Fatal [Danger"}),
        ("H300: Fatal []", {"code": "H300", "text": "Fatal"}),
        ("H300: a" + " " * 2000 + "b", {"code": "H300", "text": "a" + " " * 2000 + "b"}),
        ("H300: a" + "[" * 2000, {"code": "H300", "text": "a" + "[" * 2000}),
        ("H300: Fatal\nif swallowed", None),
    ],
)
def test_hazard_statement_text_and_class_edges(text: str, expected: dict[str, Any] | None) -> None:
    """The text is what lies between the colon and a closing `[class]`, its outer spaces dropped.

    Spaces and `[` runs were where the old pattern backtracked (cubic in a run of spaces).
    """
    assert parsing.hazard_statement(text) == expected


RECORD_CIDS = {
    "compound_record__cid-4.json": [4],
    "compound_record__inchikey-IJGRMHOSHXDMSA-UHFFFAOYSA-N.json": [947],
    "compound_record__name-50-01-1.json": [5742],
    "compound_record__name-benzene.json": [241],
    "compound_record__smiles-COOOOOOOOOOC.json": [],  # standardised, but not in PubChem: id {}
    "compound_record__smiles-c1ccccc1.json": [241],
}


@pytest.mark.parametrize("name", sorted(RECORD_CIDS))
def test_cids_of_every_compound_record(name: str) -> None:
    assert parsing.record_cids(load(name)) == RECORD_CIDS[name]


def test_property_table_with_old_and_new_smiles_keys() -> None:
    [row] = parsing.property_rows(load("property__cid-2244-aspirin-all.json"))
    assert row == {
        "cid": 2244,
        "formula": "C9H8O4",
        "smiles": "CC(=O)OC1=CC=CC=C1C(=O)O",
        "connectivity_smiles": "CC(=O)OC1=CC=CC=C1C(=O)O",
        "inchi": "InChI=1S/C9H8O4/c1-6(10)13-8-5-3-2-4-7(8)9(11)12/h2-5H,1H3,(H,11,12)",
        "inchikey": "BSYNRYMUTXBXSQ-UHFFFAOYSA-N",
        "iupac_name": "2-acetyloxybenzoic acid",
        "molecular_weight": 180.16,
        "exact_mass": 180.04225873,
        "xlogp": 1.2,
        "tpsa": 63.6,
        "hbond_donors": 1,
        "hbond_acceptors": 4,
        "rotatable_bonds": 3,
        "heavy_atoms": 13,
        "charge": 0,
    }


def test_only_deprecated_smiles_keys_are_read_too() -> None:
    [row] = parsing.property_rows(
        {"PropertyTable": {"Properties": [{"CID": 1, "CanonicalSMILES": "CC", "IsomericSMILES": "C[C@H]"}]}}
    )
    assert (row["smiles"], row["connectivity_smiles"]) == ("C[C@H]", "CC")


def test_empty_shapes() -> None:
    assert parsing.identifier_cids(load("hw_cids__fastformula-C2He.json")) == []  # CID 0 is no match
    assert parsing.identifier_cids({"IdentifierList": {"CID": [5, 0, 5, 7]}}) == [5, 7]
    assert parsing.fault_code(load("hw_fault__name-not-found.json")) == "PUGREST.NotFound"
    assert parsing.fault_code(load("hw_fault__pugview-no-data-123456789.json")) == "PUGVIEW.NotFound"
    assert parsing.ghs_classifications({"Record": {"Section": [], "Reference": []}}) == []
    assert parsing.safety_status([]) == "no_ghs_data"
    assert parsing.property_rows({}) == []
