"""compound_* in-process against the loopback recordings server (real PubChem answers), moto for the cache."""

from __future__ import annotations

from typing import Any

import pytest

from compound_service.app import app
from tests.support.recorded_apis import Canned


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    reply = app.handle({"tool": tool, "arguments": arguments, "account_id": "acct", "request_id": "r1"})
    return reply.structured_content


def test_search_by_name_gives_cids_with_titles(recorded_apis, validate_output) -> None:
    out = validate_output("compound_search", call("compound_search", query="aspirin"))
    assert out["results"] == [{"cid": 2244, "title": "Aspirin", "formula": "C9H8O4"}] and out["count"] == 1
    assert out["source"]["api"] == "PubChem" and out["source"]["url"].endswith(
        "/rest/pug/compound/name/aspirin/cids/JSON"
    )
    assert out["retrieved_at"].endswith("Z")
    # PubChem was asked with the platform's user agent, through the mirror prefix.
    assert all(headers["User-Agent"].startswith("McpPlatform/") for _api, _path, headers in recorded_apis.requests)


@pytest.mark.parametrize(
    ("by", "query", "cids"),
    [
        ("formula", "C6H6", [241]),
        ("smiles", "c1ccccc1", [241]),
        ("inchikey", "IJGRMHOSHXDMSA-UHFFFAOYSA-N", [947]),
        ("formula", "C2He", []),  # the CID 0 sentinel
        ("smiles", "COOOOOOOOOOC", []),  # standardised, but PubChem does not hold it: id {}
        ("name", "xyzzy-no-such-thing", []),  # PUGREST.NotFound is an empty answer for a search
    ],
)
def test_search_kinds_and_empty_answers(recorded_apis, validate_output, by: str, query: str, cids: list[int]) -> None:
    out = validate_output("compound_search", call("compound_search", query=query, by=by))
    assert [hit["cid"] for hit in out["results"]] == cids and out["count"] == len(cids)


def test_unreadable_smiles_is_a_clear_argument_error(recorded_apis) -> None:
    out = call("compound_search", query="not-a-smiles", by="smiles")
    assert out["code"] == "invalid_arguments" and "PubChem cannot read 'not-a-smiles' as a smiles" in out["error"]


def test_properties_by_cid_and_by_name(recorded_apis, validate_output) -> None:
    by_cid = validate_output("compound_properties", call("compound_properties", cid=2244))
    assert (by_cid["formula"], by_cid["molecular_weight"], by_cid["xlogp"], by_cid["tpsa"]) == (
        "C9H8O4",
        180.16,
        1.2,
        63.6,
    )
    assert (by_cid["hbond_donors"], by_cid["hbond_acceptors"]) == (1, 4)
    assert by_cid["source"]["url"] == "https://pubchem.ncbi.nlm.nih.gov/compound/2244"
    by_name = validate_output("compound_properties", call("compound_properties", name="aspirin"))
    assert by_name["inchikey"] == "BSYNRYMUTXBXSQ-UHFFFAOYSA-N"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"cid": 999999999}, "PubChem has no compound with CID 999999999"),
        ({"name": "xyzzy"}, "PubChem has no compound named 'xyzzy'"),
    ],
)
def test_unknown_compounds_are_not_found(recorded_apis, arguments: dict[str, Any], message: str) -> None:
    for tool in ("compound_properties", "compound_safety"):
        out = call(tool, **arguments)
        assert out["is_error"] is True and out["code"] == "not_found" and out["error"] == message


def test_cid_and_name_together_are_refused_before_any_request(recorded_apis) -> None:
    out = call("compound_properties", cid=1, name="x")
    assert out["code"] == "invalid_arguments" and "exactly one of `cid` or `name`" in out["error"]
    assert recorded_apis.hits["pubchem"] == 0


def test_safety_by_name_from_the_pug_view_record(recorded_apis, validate_output) -> None:
    out = validate_output("compound_safety", call("compound_safety", name="benzene"))
    assert (out["cid"], out["title"], out["status"], out["signal_word"]) == (241, "Benzene", "classified", "Danger")
    assert {"code": "GHS02", "name": "Flammable"} in out["pictograms"]
    echa = out["classifications"][0]
    assert echa["hazard_statements"][0]["code"].startswith("H") and echa["precautionary_codes"]
    assert out["source"]["url"] == "https://pubchem.ncbi.nlm.nih.gov/compound/241"
    pug_view = [path for api, path, _h in recorded_apis.requests if "pug_view" in path]
    assert pug_view == ["/pubchem/rest/pug_view/data/compound/241/JSON?heading=GHS+Classification"]


def test_no_ghs_data_is_a_successful_answer(recorded_apis, validate_output) -> None:
    out = validate_output("compound_safety", call("compound_safety", cid=123456789))
    assert (out["status"], out["pictograms"], out["classifications"]) == ("no_ghs_data", [], [])
    assert out["title"] == "Placeholder compound without GHS data"


def test_a_repeated_question_never_reaches_pubchem(recorded_apis) -> None:
    first = call("compound_safety", cid=8057)
    assert recorded_apis.hits["pubchem"] == 1 and first["source"]["cached"] is False
    from mcp_platform.backends import reset_clients

    reset_clients()  # a new container: the answer comes from DynamoDB, not memory
    again = call("compound_safety", cid=8057)
    assert recorded_apis.hits["pubchem"] == 1
    assert again["source"]["cached"] is True and again["retrieved_at"] == first["retrieved_at"]
    assert again["classifications"] == first["classifications"]


def test_pubchem_busy_is_retried_after_its_retry_after(recorded_apis, validate_output) -> None:
    recorded_apis.queue("pubchem", Canned(503, {"Retry-After": "1"}, b"<html>busy</html>"))
    out = validate_output("compound_properties", call("compound_properties", cid=2244))
    assert out["cid"] == 2244 and recorded_apis.hits["pubchem"] == 2


def test_pubchem_down_is_upstream_unavailable_and_named(recorded_apis) -> None:
    recorded_apis.queue("pubchem", *[Canned(500, {}, b"")] * 3)
    out = call("compound_properties", cid=2244)
    assert out["code"] == "upstream_unavailable" and out["backend"] == "PubChem"
    assert out["error"].startswith("PubChem is failing (HTTP 500)")


def test_status(recorded_apis, validate_output) -> None:
    out = validate_output("compound_status", call("compound_status"))
    assert out["backends"][0]["api"] == "PubChem" and out["backends"][0]["rate_per_s"] == 5
    assert out["backends"][0]["base_url"] == recorded_apis.base_url("pubchem")
    assert out["cache_table"] == "BackendCacheTable"
