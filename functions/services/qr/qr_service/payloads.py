"""The text inside Wi-Fi, vCard and geo QR codes: formats, and escaping done right.

segno's helpers escape too little for these (no `,` in Wi-Fi fields; no `\\` or
line breaks in vCard text, and N unescaped), so the payload is built here and
segno only encodes it.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcp_platform.contracts.qr import GeoInput, VcardInput, WifiInput

# ZXing's WIFI: format: backslash-escape \ ; , : and ".
_WIFI_ESCAPES = str.maketrans({"\\": "\\\\", ";": "\\;", ",": "\\,", ":": "\\:", '"': '\\"'})
# RFC 2426 section 4, text values: backslash, comma and semicolon escaped; a line break is \n.
_VCARD_ESCAPES = str.maketrans({"\\": "\\\\", ",": "\\,", ";": "\\;", "\n": "\\n"})


def wifi_payload(arguments: WifiInput) -> str:
    """`WIFI:T:WPA;S:<ssid>;P:<password>;H:true;;`; nopass networks carry no P field."""
    fields = [f"T:{arguments.security}", f"S:{arguments.ssid.translate(_WIFI_ESCAPES)}"]
    if arguments.password:
        fields.append(f"P:{arguments.password.translate(_WIFI_ESCAPES)}")
    if arguments.hidden:
        fields.append("H:true")
    return "WIFI:" + "".join(f"{field};" for field in fields) + ";"


def vcard_text(value: str) -> str:
    return value.replace("\r\n", "\n").replace("\r", "\n").translate(_VCARD_ESCAPES)


def vcard_payload(arguments: VcardInput) -> str:
    """A vCard 3.0 with CRLF line ends; properties without a value are left out."""
    family, given = arguments.family_name or "", arguments.given_name or ""
    lines = [
        "BEGIN:VCARD",
        "VERSION:3.0",
        f"N:{vcard_text(family)};{vcard_text(given)};;;",
        f"FN:{vcard_text(arguments.name)}",
    ]
    lines += _optional("ORG", arguments.org) + _optional("TITLE", arguments.title)
    lines += [f"TEL:{vcard_text(phone)}" for phone in arguments.phones]
    lines += [f"EMAIL;TYPE=INTERNET:{vcard_text(email)}" for email in arguments.emails]
    if arguments.url:
        lines.append(f"URL:{arguments.url}")  # a URI value, not text: no escaping (spaces are refused)
    if arguments.address:
        a = arguments.address
        parts = ["", "", a.street, a.city, a.region, a.postal_code, a.country]  # PO box; extended; street; ...
        lines.append("ADR:" + ";".join(vcard_text(part or "") for part in parts))
    lines += _optional("NOTE", arguments.note)
    lines.append("END:VCARD")
    return "\r\n".join(lines) + "\r\n"


def _optional(name: str, value: str | None) -> list[str]:
    return [f"{name}:{vcard_text(value)}"] if value else []


def geo_payload(arguments: GeoInput) -> str:
    """RFC 5870 `geo:<lat>,<lon>[,<alt>]`, in plain decimals (never 1e-05)."""
    numbers = [arguments.latitude, arguments.longitude]
    if arguments.altitude is not None:
        numbers.append(arguments.altitude)
    return "geo:" + ",".join(_plain(number) for number in numbers)


def _plain(number: float) -> str:
    text = format(Decimal(repr(number)), "f")
    return text.removesuffix(".0") if text.endswith(".0") else text
