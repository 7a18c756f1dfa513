"""qr: QR / Micro QR codes (segno) and barcodes and decoding (zxing-cpp).

Generators return the image as a staged file (`file`: download URL or id for
another tool) plus, for small PNGs, an inline MCP image, and always the exact
`payload` text that was encoded. Every rule that needs no library is checked
here, so a malformed call is refused before it is charged; what only the
encoder can know (the data does not fit a symbol, an IBAN's check digits) is an
`invalid_arguments` error from the service.
"""

from __future__ import annotations

import re
from decimal import Decimal
from functools import partial
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator, model_validator

from mcp_platform.catalogue.registry import Annotations, ToolInput, ToolSpec
from mcp_platform.contracts._common import StatusOutput, status_tool
from mcp_platform.contracts._staging import STAGED_OBJECT_SCHEMA
from mcp_platform.protocol.binary import binary_input
from mcp_platform.protocol.schema import output_schema

SERVICE = "qr"
DECODE_MAX_BYTES = 10 * 1024 * 1024
MAX_IMAGE_SIDE_PX = 8000
"""Largest generated image side; scale and border are checked against it."""
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_LINE_BREAK = re.compile(r"[\r\n]")

Symbology = Literal["ean13", "ean8", "code128", "code39", "upca", "itf", "datamatrix", "pdf417"]


def _no_control_characters(value: str | None) -> str | None:
    if value is not None and _CONTROL.search(value):
        raise ValueError("control characters (line breaks, tabs, ...) are not allowed")
    return value


# ---------------------------------------------------------------- inputs


class ImageOptions(ToolInput):
    """How the symbol is drawn; shared by every generator."""

    format: Literal["png", "svg"] = Field(default="png", description="png (also shown inline when small) or svg.")
    scale: int = Field(default=8, ge=1, le=50, description="Pixels per module (the smallest square or bar).")


class SymbolOptions(ImageOptions):
    border: int | None = Field(
        default=None,
        ge=0,
        le=20,
        description="Quiet zone in modules around the symbol; default is the standard's (4 for QR, 2 for Micro QR).",
    )


class QrOptions(SymbolOptions):
    error_correction: Literal["L", "M", "Q", "H"] = Field(
        default="M",
        description="Minimum error correction: L 7 %, M 15 %, Q 25 %, H 30 % of the symbol may be damaged. "
        "Raised for free when the chosen symbol size has room.",
    )


class GenerateInput(QrOptions):
    data: str = Field(min_length=1, max_length=7089, description="The text to encode (a URL, any Unicode text).")
    micro: bool = Field(
        default=False, description="Make a Micro QR code (at most 35 digits / 21 characters; fewer readers support it)."
    )


class WifiInput(QrOptions):
    ssid: str = Field(min_length=1, max_length=32, description="Network name (1 to 32 bytes as UTF-8).")
    password: str | None = Field(
        default=None,
        max_length=64,
        description="Required for WPA (8-63 characters or 64 hex) and WEP; omit for nopass.",
    )
    security: Literal["WPA", "WEP", "nopass"] = Field(
        default="WPA", description="WPA covers WPA/WPA2/WPA3-Personal; nopass is an open network."
    )
    hidden: bool = Field(default=False, description="The network does not broadcast its name.")

    _clean = field_validator("ssid", "password")(_no_control_characters)

    @model_validator(mode="after")
    def _password_fits_security(self) -> WifiInput:
        if len(self.ssid.encode()) > 32:
            raise ValueError("ssid: at most 32 bytes as UTF-8")
        if self.security == "nopass":
            if self.password:
                raise ValueError("password: an open (nopass) network has no password; omit it or choose WPA/WEP")
        elif not self.password:
            raise ValueError(f"password: required for {self.security}")
        elif self.security == "WPA" and not (8 <= len(self.password) <= 63 or _is_hex(self.password, 64)):
            raise ValueError("password: WPA needs 8 to 63 characters (or 64 hex digits)")
        elif self.security == "WEP" and not (len(self.password) in (5, 13) or _is_hex(self.password, 10, 26)):
            raise ValueError("password: WEP needs 5 or 13 characters, or 10 or 26 hex digits")
        return self


def _is_hex(value: str, *lengths: int) -> bool:
    return len(value) in lengths and re.fullmatch(r"[0-9A-Fa-f]+", value) is not None


class VcardAddress(ToolInput):
    street: str | None = Field(default=None, max_length=200)
    city: str | None = Field(default=None, max_length=100)
    region: str | None = Field(default=None, max_length=100)
    postal_code: str | None = Field(default=None, max_length=20)
    country: str | None = Field(default=None, max_length=100)


class VcardInput(QrOptions):
    name: str = Field(min_length=1, max_length=200, description="Full name as displayed (vCard FN).")
    given_name: str | None = Field(default=None, max_length=100, description="First name (vCard N).")
    family_name: str | None = Field(default=None, max_length=100, description="Last name (vCard N).")
    org: str | None = Field(default=None, max_length=200, description="Company / organisation.")
    title: str | None = Field(default=None, max_length=200, description="Job title.")
    phones: list[str] = Field(default_factory=list, max_length=5, description="Phone numbers, e.g. +36 1 234 5678.")
    emails: list[str] = Field(default_factory=list, max_length=5, description="Email addresses.")
    url: str | None = Field(default=None, max_length=500, description="Web site.")
    address: VcardAddress | None = None
    note: str | None = Field(default=None, max_length=500, description="Free text; line breaks are kept.")

    @field_validator("phones", "emails")
    @classmethod
    def _single_lines(cls, values: list[str]) -> list[str]:
        for value in values:
            if not value.strip() or len(value) > 200 or _CONTROL.search(value):
                raise ValueError("each entry: 1 to 200 characters, no control characters")
        return values

    @field_validator("url")
    @classmethod
    def _url_without_spaces(cls, value: str | None) -> str | None:
        if value is not None and re.search(r"[\s\x00-\x1f\x7f]", value):
            raise ValueError("a URL has no spaces or control characters")
        return value


class GeoInput(QrOptions):
    latitude: float = Field(ge=-90, le=90, description="Degrees north (WGS 84).")
    longitude: float = Field(ge=-180, le=180, description="Degrees east (WGS 84).")
    altitude: float | None = Field(
        default=None, ge=-11_000, le=100_000, description="Metres above the WGS 84 ellipsoid."
    )


class EpcInput(SymbolOptions):
    """EPC069-12 'SEPA credit transfer' QR code (GiroCode)."""

    name: str = Field(min_length=1, max_length=70, description="Beneficiary name (at most 70 characters).")
    iban: str = Field(min_length=15, max_length=42, description="Beneficiary IBAN (spaces allowed).")
    bic: str | None = Field(
        default=None, min_length=8, max_length=14, description="Beneficiary BIC; optional in the EEA."
    )
    amount: Decimal | None = Field(
        default=None,
        ge=Decimal("0.01"),
        le=Decimal("999999999.99"),
        decimal_places=2,
        description="Amount in euros, 0.01 to 999999999.99; omit to let the payer fill it in.",
    )
    currency: Literal["EUR"] = Field(default="EUR", description="SEPA credit transfers are in euros only.")
    purpose: str | None = Field(
        default=None, pattern=r"^[A-Z0-9]{4}$", description="ISO 20022 purpose code, 4 characters, e.g. CHAR or GDDS."
    )
    reference: str | None = Field(
        default=None,
        max_length=35,
        description="Structured creditor reference (ISO 11649, starts with RF, e.g. RF18539007547034). "
        "For free text use `text` instead; give at most one of the two.",
    )
    text: str | None = Field(
        default=None, max_length=140, description="Unstructured remittance text, at most 140 characters."
    )
    information: str | None = Field(
        default=None, max_length=70, description="Note from beneficiary to payer, shown by some banking apps."
    )

    @field_validator("name", "iban", "bic", "reference", "text", "information")
    @classmethod
    def _one_line(cls, value: str | None) -> str | None:
        if value is not None and _LINE_BREAK.search(value):
            raise ValueError("line breaks are not allowed (they separate the EPC fields)")
        return value.strip() if value is not None else None

    @model_validator(mode="after")
    def _reference_or_text(self) -> EpcInput:
        if self.reference and self.text:
            raise ValueError("reference, text: give a structured reference or a text, not both")
        return self


class BarcodeInput(ImageOptions):
    data: str = Field(
        min_length=1, max_length=2000, description="What to encode; the symbology decides what is allowed."
    )
    symbology: Symbology = Field(
        description="ean13 (12 digits + check digit), ean8 (7 + check), upca (11 + check), itf (even number of "
        "digits), code39 (A-Z 0-9 space - . $ / + %), code128 (ASCII), datamatrix and pdf417 (any text). "
        "A missing EAN/UPC check digit is added, a wrong one refused; UPC-A reads back as its 12 digits."
    )
    human_readable: bool = Field(default=False, description="Print the text under linear barcodes.")
    quiet_zone: bool = Field(default=True, description="Keep the standard blank margin scanners need.")
    scale: int = Field(default=2, ge=1, le=20, description="Pixels per module (the narrowest bar).")

    @model_validator(mode="after")
    def _data_fits_symbology(self) -> BarcodeInput:
        rule = _BARCODE_RULES.get(self.symbology)
        if rule and not re.fullmatch(rule[0], self.data):
            raise ValueError(f"data: {self.symbology} takes {rule[1]}")
        if self.symbology == "itf" and len(self.data) % 2:
            raise ValueError("data: itf encodes digits in pairs, so it needs an even number of digits")
        if self.symbology in GS1_LENGTHS and len(self.data) == GS1_LENGTHS[self.symbology]:
            body, given = self.data[:-1], self.data[-1]
            if given != (expected := gs1_check_digit(body)):
                raise ValueError(
                    f"data: Invalid check digit {given}; {self.symbology} {body} ends in {expected} "
                    "(or send it without the check digit, which is then added)"
                )
        return self


GS1_LENGTHS = {"ean13": 13, "ean8": 8, "upca": 12}
"""Digits of a complete EAN/UPC number, check digit included."""


def gs1_check_digit(body: str) -> str:
    """The GS1 (EAN/UPC) check digit of `body`: weights 3, 1, 3, ... from the right, up to a multiple of 10."""
    total = sum(int(digit) * (3 if i % 2 == 0 else 1) for i, digit in enumerate(reversed(body)))
    return str(-total % 10)


_BARCODE_RULES = {
    "ean13": (r"\d{12,13}", "12 digits, or 13 with the check digit"),
    "ean8": (r"\d{7,8}", "7 digits, or 8 with the check digit"),
    "upca": (r"\d{11,12}", "11 digits, or 12 with the check digit"),
    "itf": (r"\d{2,80}", "2 to 80 digits"),
    "code39": (r"[0-9A-Z \-.$/+%]{1,80}", "1 to 80 of A-Z 0-9 space - . $ / + % (upper case)"),
    "code128": (r"[\x20-\x7e]{1,80}", "1 to 80 printable ASCII characters"),
}


class DecodeInput(ToolInput):
    image: binary_input(  # type: ignore[valid-type]
        "The picture or scan containing QR codes or barcodes (PNG, JPEG, GIF, WebP, TIFF, BMP).",
        max_bytes=DECODE_MAX_BYTES,
        media_types=("image/*",),
        argument="image",
    )


# ---------------------------------------------------------------- outputs


class Symbol(BaseModel):
    kind: Literal["qr", "micro_qr"] | Symbology = Field(description="What was drawn.")
    version: str | None = Field(default=None, description="QR version 1-40 or Micro QR M1-M4.")
    error_correction: Literal["L", "M", "Q", "H"] | None = Field(
        default=None, description="Level actually used (absent for Micro QR M1, which only detects errors)."
    )
    width_px: int
    height_px: int


class ImageResult(BaseModel):
    payload: str = Field(description="Exactly the text that was encoded; a scanner returns this.")
    format: Literal["png", "svg"]
    symbol: Symbol


class Point(BaseModel):
    x: int
    y: int


class Position(BaseModel):
    top_left: Point
    top_right: Point
    bottom_right: Point
    bottom_left: Point


class DecodedSymbol(BaseModel):
    text: str = Field(description="The decoded content as text.")
    format: str = Field(description="zxing-cpp format name: QRCode, MicroQRCode, EAN13, Code128, DataMatrix, ...")
    content_type: str = Field(description="Text, Binary, Mixed, GS1, ISO15434 or UnknownECI.")
    bytes_base64: str | None = Field(default=None, description="The raw bytes, for Binary content.")
    error_correction: str | None = None
    orientation: int = Field(description="Rotation in degrees.")
    position: Position = Field(description="Corners in image pixels.")


class DecodeOutput(BaseModel):
    count: int
    symbols: list[DecodedSymbol]
    image: dict[str, Any] = Field(description="{width, height, format} of the decoded picture.")


class QrStatus(StatusOutput):
    service: Literal["qr"] = "qr"
    libraries: dict[str, str]
    symbologies: list[str] = Field(description="What qr_barcode draws.")
    decodable: list[str] = Field(description="What qr_decode reads.")


def _with_file(model: type[BaseModel]) -> dict[str, Any]:
    """The model's schema plus `file`, the staged image (binary.py's shape)."""
    schema = output_schema(model)
    schema["properties"]["file"] = STAGED_OBJECT_SCHEMA
    schema["required"] = [*schema.get("required", []), "file"]
    return schema


# ---------------------------------------------------------------- tools

_IMAGE_OUT = _with_file(ImageResult)
_DELIVERY = (
    " Returns `file` (a download URL valid for an hour, and an id other tools accept), the exact `payload` "
    "encoded, and small PNGs inline."
)


_NEW_FILE = Annotations(read_only=False, idempotent=False)
"""Generators store a new staged file on every call."""
_tool = partial(ToolSpec, service=SERVICE, output_schema=_IMAGE_OUT, annotations=_NEW_FILE, price=1)


TOOLS = [
    _tool(
        name="qr_generate",
        title="Make a QR code",
        description="Encodes text or a URL as a QR code (or Micro QR) image, PNG or SVG."
        + _DELIVERY
        + " Costs 1 credit.",
        input_model=GenerateInput,
    ),
    _tool(
        name="qr_decode",
        title="Read QR codes and barcodes from an image",
        description="Finds and decodes every QR, Micro QR, Data Matrix, Aztec, PDF417 and linear barcode (EAN, UPC, "
        "Code 128/39/93, ITF, Codabar, DataBar) in a picture, with each one's text, format and corner "
        "positions. Costs 2 credits.",
        input_model=DecodeInput,
        output_schema=output_schema(DecodeOutput),
        annotations=Annotations(),
        price=2,
    ),
    _tool(
        name="qr_wifi",
        title="Make a Wi-Fi QR code",
        description="QR code that joins a Wi-Fi network when scanned (WIFI: format, special characters escaped)."
        + _DELIVERY
        + " Costs 1 credit.",
        input_model=WifiInput,
    ),
    _tool(
        name="qr_vcard",
        title="Make a contact (vCard) QR code",
        description="QR code holding a vCard 3.0 contact (name, phones, emails, organisation, address, ...), text "
        "escaped per RFC 2426." + _DELIVERY + " Costs 1 credit.",
        input_model=VcardInput,
    ),
    _tool(
        name="qr_geo",
        title="Make a location QR code",
        description="QR code with a geo: URI (RFC 5870) that opens a map at the coordinates."
        + _DELIVERY
        + " Costs 1 credit.",
        input_model=GeoInput,
    ),
    _tool(
        name="qr_epc",
        title="Make a SEPA payment QR code (EPC / GiroCode)",
        description="QR code for a SEPA credit transfer in the EPC069-12 format that European banking apps scan to "
        "pre-fill a payment: beneficiary name, IBAN, optional BIC, euro amount, purpose and reference or "
        "text. IBAN, BIC and creditor reference are checked." + _DELIVERY + " Costs 1 credit.",
        input_model=EpcInput,
    ),
    _tool(
        name="qr_barcode",
        title="Make a barcode",
        description="Draws a linear or 2D barcode: EAN-13, EAN-8, UPC-A, ITF, Code 39, Code 128, Data Matrix or PDF417."
        + _DELIVERY
        + " Costs 1 credit.",
        input_model=BarcodeInput,
    ),
    status_tool(
        SERVICE,
        title="qr service status",
        description="Library versions and the symbologies qr_barcode draws and qr_decode reads. Free.",
        output_schema=output_schema(QrStatus),
    ),
]
