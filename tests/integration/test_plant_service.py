"""plant_* in-process against the loopback recordings server (GBIF and POWO answers), moto for the cache."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from plant_service.app import app
from tests.support.recorded_apis import Canned

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "plant"


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    return app.handle(
        {"tool": tool, "arguments": arguments, "account_id": "acct", "request_id": "r1"}
    ).structured_content


def test_search_matches_the_backbone(recorded_apis, validate_output) -> None:
    out = validate_output("plant_search", call("plant_search", name="Helianthus annuus"))
    assert out["results"] == [{"usage_key": 9206251, "scientific_name": "Helianthus annuus L.",
                               "canonical_name": "Helianthus annuus", "rank": "SPECIES", "status": "ACCEPTED",
                               "confidence": 99, "match_type": "EXACT", "kingdom": "Plantae", "family": "Asteraceae",
                               "synonym": False}]  # fmt: skip
    assert out["source"]["api"] == "GBIF" and "/gbif/v1/species/match?name=Helianthus+annuus" in out["source"]["url"]
    assert all(h["User-Agent"].startswith("McpPlatform/") for _api, _path, h in recorded_apis.requests)


def test_match_type_none_is_an_empty_answer(recorded_apis, validate_output) -> None:
    out = validate_output("plant_search", call("plant_search", name="Aso"))
    assert (out["count"], out["results"], out["note"]) == (0, [], "No match because of too little confidence")


def test_get_gives_classification_synonyms_and_names_by_language(recorded_apis, validate_output) -> None:
    out = validate_output("plant_get", call("plant_get", key=5231190))
    assert [r["rank"] for r in out["classification"]] == ["kingdom", "phylum", "class", "order", "family", "genus"]
    assert out["synonyms"][0] == {"key": 8933000, "scientific_name": "Fringilla domestica Linnaeus, 1758",
                                  "status": "HOMOTYPIC_SYNONYM"}  # fmt: skip
    assert "Adar y To" in out["vernacular_names"]["cym"] and out["truncated"] == ["vernacular_names"]
    assert out["source"]["url"] == "https://www.gbif.org/species/5231190"
    empty = validate_output("plant_get", call("plant_get", key=5136034))
    assert (empty["synonyms"], empty["vernacular_names"], empty["truncated"]) == ([], {}, [])


def test_an_unknown_key_is_not_found_and_names_it(recorded_apis) -> None:
    out = call("plant_get", key=999999999)
    assert out["code"] == "not_found" and "GBIF has no taxon with usage key 999999999" in out["error"]


def test_distribution_from_powo_when_the_name_links(recorded_apis, validate_output) -> None:
    out = validate_output("plant_distribution", call("plant_distribution", key=2704179))
    assert (out["distribution_source"], out["ipni_id"]) == ("powo", "320035-2")
    assert out["native"][0] == {"name": "Afghanistan", "code": "AFG", "establishment": "Native"}
    assert out["introduced"] and out["source"] == {
        "api": "Kew POWO",
        "url": "https://powo.science.kew.org/taxon/urn:lsid:ipni.org:names:320035-2",
        "cached": False,
    }
    asked = [path for api, path, _h in recorded_apis.requests if api == "powo"]
    assert asked[0].startswith("/powo/api/2/search?genus=Poa&species=annua&f=accepted_names")


def test_distribution_falls_back_to_gbif_and_says_why(recorded_apis, validate_output) -> None:
    animal = validate_output("plant_distribution", call("plant_distribution", key=5231190))
    assert animal["distribution_source"] == "gbif" and "not Animalia" in animal["note"]
    assert {"name": "Reunion", "code": "France", "establishment": "introduced"} in animal["introduced"]
    assert recorded_apis.hits["powo"] == 0
    # POWO answers an empty search (its real empty shape): no link, GBIF's (empty) checklist distributions.
    empty = (FIXTURES / "search__Poa-annua-infraspecific-f.json").read_bytes()
    recorded_apis.queue("powo", Canned(200, {"Content-Type": "application/json"}, empty))
    unlinked = validate_output("plant_distribution", call("plant_distribution", key=2704179))
    assert unlinked["distribution_source"] == "gbif" and "POWO has no accepted name 'Poa annua'" in unlinked["note"]


def test_powo_down_is_still_an_answer_from_gbif_naming_powo(recorded_apis, validate_output) -> None:
    down = Canned(503, {"Retry-After": "120"}, b"")  # three times, with no time to wait that long
    recorded_apis.queue("powo", down, down, down)
    out = validate_output("plant_distribution", call("plant_distribution", key=2704179))
    assert out["distribution_source"] == "gbif" and "Kew POWO did not answer" in out["note"]


def test_powo_record_gone_falls_back(recorded_apis, validate_output) -> None:
    gone = json.dumps({"error": "Not Found"}).encode()
    search = (FIXTURES / "search__genus-Poa-accepted-names.json").read_bytes()
    recorded_apis.queue("powo", Canned(200, {"Content-Type": "application/json"}, search),
                        Canned(400, {"Content-Type": "application/json"}, gone))  # fmt: skip
    out = validate_output("plant_distribution", call("plant_distribution", key=2704179))
    assert out["distribution_source"] == "gbif" and "POWO has no record urn:lsid:ipni.org:names:320035-2" in out["note"]


def test_a_repeated_question_never_reaches_gbif_again(recorded_apis) -> None:
    call("plant_search", name="Helianthus annuus")
    before = recorded_apis.hits["gbif"]
    cached = call("plant_search", name="Helianthus annuus")
    assert recorded_apis.hits["gbif"] == before and cached["source"]["cached"] is True


def test_gbif_down_is_upstream_unavailable_and_uncharged(recorded_apis) -> None:
    down = Canned(503, {"Retry-After": "120"}, b"")
    recorded_apis.queue("gbif", down, down, down)
    out = call("plant_search", name="Poa pratensis")
    assert out["code"] == "upstream_unavailable" and out["backend"] == "GBIF"


def test_status_names_both_backends(recorded_apis, validate_output) -> None:
    out = validate_output("plant_status", call("plant_status"))
    assert [b["api"] for b in out["backends"]] == ["GBIF", "Kew POWO"]
    assert out["backends"][0]["base_url"] == recorded_apis.base_url("gbif")


def test_a_429_with_retry_after_is_waited_out_within_the_deadline(recorded_apis, validate_output) -> None:
    recorded_apis.queue("gbif", Canned(429, {"Retry-After": "0"}, b""))
    out = validate_output("plant_search", call("plant_search", name="Helianthus annuus"))
    assert out["results"][0]["usage_key"] == 9206251 and recorded_apis.hits["gbif"] == 2


def test_a_synonym_key_gives_the_distribution_of_its_accepted_taxon(recorded_apis, validate_output) -> None:
    out = validate_output("plant_distribution", call("plant_distribution", key=8933000))
    assert (out["key"], out["scientific_name"], out["distribution_source"]) == (
        8933000,
        "Passer domesticus (Linnaeus, 1758)",
        "gbif",
    )
    assert out["note"].startswith(
        "Fringilla domestica Linnaeus, 1758 is a synonym of Passer domesticus (Linnaeus, 1758)"
    )
    assert out["introduced"] and out["source"]["url"] == "https://www.gbif.org/species/5231190"
