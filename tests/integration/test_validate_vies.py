"""validate_vat live=true against recorded EU VIES answers (respx); VIES down is never 'invalid'."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import httpx
import pytest
import respx

from validate_service import vies
from validate_service.app import app
from validate_support import fixture

if TYPE_CHECKING:
    from collections.abc import Callable


@pytest.fixture(autouse=True)
def fresh_client() -> None:
    vies._vies_client.cache_clear()  # a fresh polite limiter per test


def live(number: str, **extra: Any) -> dict[str, Any]:
    arguments = {"number": number, "live": True, **extra}
    reply = app.handle({"tool": "validate_vat", "arguments": arguments, "account_id": "acct", "request_id": "r1"})
    return reply.structured_content


@respx.mock
def test_registered_number(validate_output) -> None:
    route = respx.post(vies.endpoint()).respond(200, json=fixture("vies_valid_named.json"))
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
    respx.post(vies.endpoint()).respond(200, json=fixture("vies_valid.json"))
    out = validate_output("validate_vat", live("DE136695976"))
    assert out["live"]["status"] == "valid"
    assert "name" not in out["live"] and "address" not in out["live"]


@respx.mock
def test_unregistered_number_is_invalid_live(validate_output) -> None:
    respx.post(vies.endpoint()).respond(200, json=fixture("vies_invalid.json"))
    out = validate_output("validate_vat", live("DE136695976"))
    assert (out["valid"], out["live"]["status"]) == (True, "invalid")


@respx.mock
def test_greece_is_asked_as_el() -> None:
    route = respx.post(vies.endpoint()).respond(200, json=fixture("vies_invalid.json"))
    live("094259216", country="GR")
    assert json.loads(route.calls.last.request.content)["countryCode"] == "EL"


@pytest.mark.parametrize("status_code", [200, 500])
@respx.mock
def test_member_state_down_is_unavailable_not_invalid(validate_output, status_code: int) -> None:
    respx.post(vies.endpoint()).respond(status_code, json=fixture("vies_ms_unavailable.json"))
    out = validate_output("validate_vat", live("DE136695976"))
    assert out["valid"] is True
    assert out["live"] == {"status": "unavailable", "source": "EU VIES", "detail": "MS_UNAVAILABLE"}


@respx.mock
def test_vies_rejecting_the_input_is_invalid_live() -> None:
    respx.post(vies.endpoint()).respond(400, json=fixture("vies_invalid_input.json"))
    assert live("DE136695976")["live"] == {"status": "invalid", "source": "EU VIES", "detail": "INVALID_INPUT"}


@respx.mock
def test_format_invalid_numbers_are_not_sent() -> None:
    route = respx.post(vies.endpoint()).respond(200, json=fixture("vies_valid.json"))
    out = live("DE136695975")
    assert (out["valid"], out["live"]["status"]) == (False, "not_checked")
    assert not route.called


@pytest.mark.parametrize(
    ("side_effect", "message"),
    [
        (httpx.ConnectError("refused"), "EU VIES is unreachable (ConnectError)"),
        (httpx.ReadTimeout("slow"), "EU VIES did not answer in time"),
        (httpx.Response(429), "EU VIES is rate-limiting our requests (HTTP 429)"),
        (httpx.Response(503, text="<html>maintenance</html>"), "EU VIES is failing (HTTP 503)"),
        (httpx.Response(500, text="<html>oops</html>"), "HTTP 500 without a JSON body"),
        (httpx.Response(200, json={"surprise": True}), "neither a verdict nor an error code"),
        (httpx.Response(200, text="[" * 25_000), "HTTP 200 without a JSON body"),
    ],
)
@respx.mock
def test_vies_unreachable_is_an_error_naming_vies(side_effect: Any, message: str) -> None:
    """One mapping (mcp_platform.outbound.upstream): a backend down or rate-limiting is upstream_unavailable."""
    route = respx.post(vies.endpoint()).mock(side_effect=side_effect)
    out = live("DE136695976")
    assert out["is_error"] is True
    assert out["code"] == "upstream_unavailable" and out["backend"] == "EU VIES"
    assert message in out["error"]
    assert out["error"].endswith("; retry later or use live=false for the offline check")
    # 429 and 503 are asked again (with backoff, inside the deadline); nothing else is.
    assert route.call_count == (
        3 if isinstance(side_effect, httpx.Response) and side_effect.status_code in (429, 503) else 1
    )


@respx.mock
def test_vies_origin_is_configurable(monkeypatch: pytest.MonkeyPatch, reload_settings: Callable[[], None]) -> None:
    monkeypatch.setenv("VIES_BASE_URL", "http://vies-mirror.test/eu")
    reload_settings()
    route = respx.post("http://vies-mirror.test/eu/taxation_customs/vies/rest-api/check-vat-number").respond(
        200, json=fixture("vies_invalid.json")
    )
    assert live("DE136695976")["live"]["status"] == "invalid" and route.called
