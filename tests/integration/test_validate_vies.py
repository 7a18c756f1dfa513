"""validate_vat live=true against recorded EU VIES answers (respx); VIES down is never 'invalid'."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
import respx

from validate_service import vies
from validate_service.app import app
from validate_support import fixture


@pytest.fixture(autouse=True)
def fresh_client() -> None:
    vies.vies_client.cache_clear()


def live(number: str, **extra: Any) -> dict[str, Any]:
    arguments = {"number": number, "live": True, **extra}
    reply = app.handle({"tool": "validate_vat", "arguments": arguments, "account_id": "acct", "request_id": "r1"})
    return reply.structured_content


@respx.mock
def test_registered_number(validate_output) -> None:
    route = respx.post(vies.VIES_URL).respond(200, json=fixture("vies_valid_named.json"))
    out = validate_output("validate_vat", live("IE 6388047V"))
    assert out["valid"] is True
    assert out["live"] == {
        "status": "valid",
        "source": "EU VIES",
        "name": "GOOGLE IRELAND LIMITED",
        "address": "3RD FLOOR, GORDON HOUSE, BARROW STREET, DUBLIN 4",
        "request_date": "2026-11-30T10:00:00.000Z",
    }
    assert json.loads(route.calls.last.request.content) == {"countryCode": "IE", "vatNumber": "6388047V"}


@respx.mock
def test_unpublished_name_is_absent_not_dashes(validate_output) -> None:
    respx.post(vies.VIES_URL).respond(200, json=fixture("vies_valid.json"))
    out = validate_output("validate_vat", live("DE136695976"))
    assert out["live"]["status"] == "valid"
    assert "name" not in out["live"] and "address" not in out["live"]


@respx.mock
def test_unregistered_number_is_invalid_live(validate_output) -> None:
    respx.post(vies.VIES_URL).respond(200, json=fixture("vies_invalid.json"))
    out = validate_output("validate_vat", live("DE136695976"))
    assert (out["valid"], out["live"]["status"]) == (True, "invalid")


@respx.mock
def test_greece_is_asked_as_el() -> None:
    route = respx.post(vies.VIES_URL).respond(200, json=fixture("vies_invalid.json"))
    live("094259216", country="GR")
    assert json.loads(route.calls.last.request.content)["countryCode"] == "EL"


@pytest.mark.parametrize("status_code", [200, 500])
@respx.mock
def test_member_state_down_is_unavailable_not_invalid(validate_output, status_code: int) -> None:
    respx.post(vies.VIES_URL).respond(status_code, json=fixture("vies_ms_unavailable.json"))
    out = validate_output("validate_vat", live("DE136695976"))
    assert out["valid"] is True
    assert out["live"] == {"status": "unavailable", "source": "EU VIES", "detail": "MS_UNAVAILABLE"}


@respx.mock
def test_vies_rejecting_the_input_is_invalid_live() -> None:
    respx.post(vies.VIES_URL).respond(400, json=fixture("vies_invalid_input.json"))
    assert live("DE136695976")["live"] == {"status": "invalid", "source": "EU VIES", "detail": "INVALID_INPUT"}


@respx.mock
def test_format_invalid_numbers_are_not_sent() -> None:
    route = respx.post(vies.VIES_URL).respond(200, json=fixture("vies_valid.json"))
    out = live("DE136695975")
    assert (out["valid"], out["live"]["status"]) == (False, "not_checked")
    assert not route.called


@pytest.mark.parametrize(
    ("side_effect", "code", "message"),
    [
        (httpx.ConnectError("refused"), "upstream_unavailable", "EU VIES is unreachable (ConnectError)"),
        (httpx.ReadTimeout("slow"), "upstream_unavailable", "EU VIES did not answer within"),
        (httpx.Response(429), "rate_limited", "EU VIES is rate-limiting"),
        (httpx.Response(503, text="<html>maintenance</html>"), "upstream_unavailable", "HTTP 503 without a JSON body"),
        (httpx.Response(200, json={"surprise": True}), "upstream_unavailable", "neither a verdict nor an error code"),
    ],
)
@respx.mock
def test_vies_unreachable_is_an_error_naming_vies(side_effect: Any, code: str, message: str) -> None:
    respx.post(vies.VIES_URL).mock(side_effect=side_effect)
    out = live("DE136695976")
    assert out["is_error"] is True
    assert out["code"] == code
    assert message in out["error"]
    assert "live=false" in out["error"]
