"""The text inside Wi-Fi, vCard, geo and EPC codes: formats and escaping (no image involved)."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from pydantic import ValidationError

from mcp_platform.contracts.qr import (
    BarcodeInput,
    EpcInput,
    GeoInput,
    VcardAddress,
    VcardInput,
    WifiInput,
    gs1_check_digit,
)
from mcp_platform.protocol.errors import ToolError
from qr_service.epc import epc_payload
from qr_service.payloads import geo_payload, vcard_payload, wifi_payload

NASTY = 'a\\b;c,d:e"f'


def unescape_wifi_field(payload: str, key: str) -> str:
    """What a reader does: find `key:` and take characters up to an unescaped `;`."""
    match = re.search(rf"(?:^WIFI:|;){key}:((?:\\.|[^\\;])*);", payload)
    assert match, payload
    return re.sub(r"\\(.)", r"\1", match.group(1))


def test_wifi_escapes_every_special_character() -> None:
    payload = wifi_payload(WifiInput(ssid=NASTY, password="pass" + NASTY))
    assert payload == 'WIFI:T:WPA;S:a\\\\b\\;c\\,d\\:e\\"f;P:passa\\\\b\\;c\\,d\\:e\\"f;;'
    assert unescape_wifi_field(payload, "S") == NASTY
    assert unescape_wifi_field(payload, "P") == "pass" + NASTY


def test_wifi_open_and_hidden_networks() -> None:
    assert wifi_payload(WifiInput(ssid="Cafe", security="nopass")) == "WIFI:T:nopass;S:Cafe;;"
    hidden = wifi_payload(WifiInput(ssid="Lab", password="12345", security="WEP", hidden=True))
    assert hidden == "WIFI:T:WEP;S:Lab;P:12345;H:true;;"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"ssid": "x", "security": "WPA"}, "password: required for WPA"),
        ({"ssid": "x", "password": "short", "security": "WPA"}, "password: WPA needs 8 to 63"),
        ({"ssid": "x", "password": "123456", "security": "WEP"}, "password: WEP needs"),
        ({"ssid": "x", "password": "secret123", "security": "nopass"}, "password: an open (nopass) network"),
        ({"ssid": "ű" * 17, "password": "12345678"}, "ssid: at most 32 bytes"),
        ({"ssid": "a\nb", "password": "12345678"}, "control characters"),
    ],
)
def test_wifi_rules_are_checked_before_any_charge(arguments: dict, message: str) -> None:
    with pytest.raises(ValidationError, match=re.escape(message)):
        WifiInput(**arguments)


def test_vcard_escapes_text_and_keeps_structure() -> None:
    card = VcardInput(
        name="Kovács, Anna; PhD",
        given_name="Anna",
        family_name="Kovács",
        org="Acme\\Labs",
        phones=["+36 1 234 5678"],
        emails=["anna@example.com"],
        url="https://example.com/a,b;c",
        address=VcardAddress(street="Fő utca 1.", city="Budapest", postal_code="1011", country="Hungary"),
        note="line one\nline two, with; all",
    )
    assert vcard_payload(card).split("\r\n") == [
        "BEGIN:VCARD",
        "VERSION:3.0",
        "N:Kovács;Anna;;;",
        "FN:Kovács\\, Anna\\; PhD",
        "ORG:Acme\\\\Labs",
        "TEL:+36 1 234 5678",
        "EMAIL;TYPE=INTERNET:anna@example.com",
        "URL:https://example.com/a,b;c",
        "ADR:;;Fő utca 1.;Budapest;;1011;Hungary",
        "NOTE:line one\\nline two\\, with\\; all",
        "END:VCARD",
        "",
    ]


def test_vcard_minimal_and_refusals() -> None:
    assert vcard_payload(VcardInput(name="Anna")) == "BEGIN:VCARD\r\nVERSION:3.0\r\nN:;;;;\r\nFN:Anna\r\nEND:VCARD\r\n"
    with pytest.raises(ValidationError, match="url"):
        VcardInput(name="x", url="https://exa mple.com")
    with pytest.raises(ValidationError, match="phones"):
        VcardInput(name="x", phones=["1\n2"])


@pytest.mark.parametrize(
    ("lat", "lon", "alt", "expected"),
    [
        (47.4979, 19.0402, None, "geo:47.4979,19.0402"),
        (-33.8688, 151.2093, 58.5, "geo:-33.8688,151.2093,58.5"),
        (0.00001, -0.00002, None, "geo:0.00001,-0.00002"),
        (90, 180, 0, "geo:90,180,0"),
    ],
)
def test_geo_uri(lat: float, lon: float, alt: float | None, expected: str) -> None:
    assert geo_payload(GeoInput(latitude=lat, longitude=lon, altitude=alt)) == expected


def test_geo_bounds() -> None:
    with pytest.raises(ValidationError, match="latitude"):
        GeoInput(latitude=91, longitude=0)


def test_epc_fields_in_order() -> None:
    payload = epc_payload(
        EpcInput(
            name="Rotes Kreuz e.V.",
            iban="de89 3704 0044 0532 0130 00",
            bic="COBA DE FF XXX",
            amount=Decimal("12.5"),
            purpose="CHAR",
            reference="RF18 5390 0754 7034",
            information="Danke",
        )
    )
    assert payload.split("\n") == [
        "BCD",  # service tag
        "002",  # version
        "1",  # character set: UTF-8
        "SCT",  # SEPA credit transfer
        "COBADEFFXXX",
        "Rotes Kreuz e.V.",
        "DE89370400440532013000",
        "EUR12.50",
        "CHAR",
        "RF18539007547034",
        "",  # no unstructured text next to a structured reference
        "Danke",
    ]


def test_epc_stops_at_the_last_filled_field() -> None:
    payload = epc_payload(EpcInput(name="Anna", iban="DE89370400440532013000", text="Invoice 42"))
    assert payload == "BCD\n002\n1\nSCT\n\nAnna\nDE89370400440532013000\n\n\n\nInvoice 42"
    assert epc_payload(EpcInput(name="Anna", iban="DE89370400440532013000")).endswith("\nDE89370400440532013000")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"iban": "DE89370400440532013001"}, "iban: not a valid IBAN"),
        ({"bic": "COBAXXFF"}, "bic: not a valid BIC"),
        ({"reference": "Invoice 42"}, "reference: not an ISO 11649 creditor reference"),
    ],
)
def test_epc_identifiers_are_checked(arguments: dict, message: str) -> None:
    base = {"name": "Anna", "iban": "DE89370400440532013000"}
    with pytest.raises(ToolError) as info:
        epc_payload(EpcInput(**(base | arguments)))
    assert info.value.code == "invalid_arguments"
    assert info.value.message.startswith(message)


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({"amount": "0.001"}, "amount"),
        ({"amount": "1000000000"}, "amount"),
        ({"name": "x" * 71}, "name"),
        ({"name": "two\nlines"}, "name"),
        ({"purpose": "charity"}, "purpose"),
        ({"currency": "USD"}, "currency"),
        ({"reference": "RF18539007547034", "text": "both"}, "reference, text"),
    ],
)
def test_epc_input_rules(arguments: dict, field: str) -> None:
    base = {"name": "Anna", "iban": "DE89370400440532013000"}
    with pytest.raises(ValidationError, match=re.escape(field)):
        EpcInput(**(base | arguments))


@pytest.mark.parametrize(
    ("symbology", "data", "message"),
    [
        ("ean13", "12345", "ean13 takes 12 digits"),
        ("code39", "lower", "code39 takes"),
        ("itf", "123", "even number of digits"),
        ("code128", "tab\there", "printable ASCII"),
        ("ean13", "4006381333932", "data: Invalid check digit 2; ean13 400638133393 ends in 1"),
        ("ean8", "96385075", "data: Invalid check digit 5; ean8 9638507 ends in 4"),
        ("upca", "036000291453", "data: Invalid check digit 3; upca 03600029145 ends in 2"),
    ],
)
def test_barcode_data_rules(symbology: str, data: str, message: str) -> None:
    with pytest.raises(ValidationError, match=re.escape(message)):
        BarcodeInput(data=data, symbology=symbology)


@pytest.mark.parametrize(
    ("body", "check"),
    [("400638133393", "1"), ("9638507", "4"), ("03600029145", "2"), ("590123412345", "7"), ("0000000", "0")],
)
def test_gs1_check_digit(body: str, check: str) -> None:
    assert gs1_check_digit(body) == check
    symbology = {12: "ean13", 7: "ean8", 11: "upca"}[len(body)]
    assert BarcodeInput(data=body + check, symbology=symbology).data == body + check
