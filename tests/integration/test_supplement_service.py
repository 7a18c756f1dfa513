"""supplement_* in-process against the loopback recordings server (DSLD labels, ODS fact sheets), moto for the cache."""

from __future__ import annotations

from typing import Any

import pytest

from mcp_platform.contracts._data import NOT_MEDICAL_ADVICE
from supplement_service.app import app
from tests.support.recorded_apis import Canned


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    reply = app.handle({"tool": tool, "arguments": arguments, "account_id": "acct", "request_id": "r1"})
    return reply.structured_content


def test_search(recorded_apis, validate_output) -> None:
    out = validate_output("supplement_search", call("supplement_search", query="melatonin", limit=2))
    assert [r["dsld_id"] for r in out["results"]] == [332395, 277770] and out["total"] == 3
    assert out["notice"] == NOT_MEDICAL_ADVICE and out["source"]["api"] == "NIH DSLD"
    _api, path, _h = recorded_apis.requests[-1]
    assert path == "/dsld/dsld/v9/search-filter?q=melatonin&from=0&size=2"


def test_search_without_hits_is_empty(recorded_apis, validate_output) -> None:
    out = validate_output("supplement_search", call("supplement_search", query="xyzzy"))
    assert (out["results"], out["total"]) == ([], 0)


@pytest.mark.parametrize("dsld_id", [1225, 216782, 59832, 82602])
def test_label(recorded_apis, validate_output, dsld_id: int) -> None:
    out = validate_output("supplement_label", call("supplement_label", dsld_id=dsld_id))
    assert out["dsld_id"] == dsld_id and out["ingredients"]
    assert out["source"]["url"] == f"https://dsld.od.nih.gov/label/{dsld_id}"


def test_unknown_label_is_not_found(recorded_apis) -> None:
    out = call("supplement_label", dsld_id=999999999)
    assert out["code"] == "not_found" and out["error"] == "NIH DSLD has no supplement label with id 999999999"


def test_ingredient_fact_sheet(recorded_apis, validate_output) -> None:
    out = validate_output("supplement_ingredient", call("supplement_ingredient", name="vitamin D"))
    assert out["resource"] == "VitaminD" and out["rda"]["rows"][0][0] == "0-12 months*"
    assert out["ul"]["caption"].startswith("Table 4")
    assert out["source"]["url"] == out["url"] == "https://ods.od.nih.gov/factsheets/VitaminD-HealthProfessional/"
    _api, path, headers = recorded_apis.requests[-1]
    assert "readinglevel=Health+Professional" in path and headers["Accept"] == "application/xml"


@pytest.mark.parametrize("name", ["xyzzy", "no such sheet"])
def test_unknown_fact_sheet_is_not_found(recorded_apis, name: str) -> None:
    out = call("supplement_ingredient", name=name)
    assert out["code"] == "not_found" and out["error"] == f"NIH ODS has no fact sheet for {name!r}"


def test_labels_are_served_from_the_cache(recorded_apis) -> None:
    first = call("supplement_label", dsld_id=1225)
    from mcp_platform.backends import reset_clients

    reset_clients()
    again = call("supplement_label", dsld_id=1225)
    assert recorded_apis.hits["dsld"] == 1 and again["source"]["cached"] is True
    assert again["ingredients"] == first["ingredients"]


def test_dsld_down_is_upstream_unavailable(recorded_apis) -> None:
    recorded_apis.queue("dsld", *[Canned(503, {"Retry-After": "0"})] * 3)
    out = call("supplement_label", dsld_id=1225)
    assert out["code"] == "upstream_unavailable" and out["backend"] == "NIH DSLD"
    assert recorded_apis.hits["dsld"] == 3  # asked again twice (Retry-After: 0), then gave up


def test_status(recorded_apis, validate_output) -> None:
    out = validate_output("supplement_status", call("supplement_status"))
    assert [b["api"] for b in out["backends"]] == ["NIH DSLD", "NIH ODS"]
