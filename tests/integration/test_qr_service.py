"""qr_*: every generated image is read back with zxing-cpp to exactly its payload (staging in moto)."""

from __future__ import annotations

import base64
import io
from typing import Any

import pytest
import segno
from PIL import Image

from qr_service import decoding
from qr_service.app import app
from qr_support import read_one
from staging_support import service_store, staging_bucket  # noqa: F401 - fixture

ACCOUNT = "acct_qr"
pytestmark = pytest.mark.usefixtures("staging_bucket")


def call(tool: str, **arguments: Any) -> Any:
    return app.handle({"tool": tool, "arguments": arguments, "account_id": ACCOUNT, "request_id": "r1"})


def generated(tool: str, validate_output, **arguments: Any) -> tuple[dict[str, Any], bytes]:
    """The tool's structured result (schema-checked) and the staged image's bytes."""
    reply = call(tool, **arguments)
    out = validate_output(tool, reply.structured_content)
    file = out["file"]
    _, data = service_store().read(ACCOUNT, file["id"], 10_000_000)
    assert (len(data), file["media_type"]) == (file["size"], "image/svg+xml" if out["format"] == "svg" else "image/png")
    if out["format"] == "png":
        assert reply.content == [{"type": "image", "data": base64.b64encode(data).decode(), "mimeType": "image/png"}]
    else:
        assert reply.content == []
    return out, data


def round_trip(tool: str, validate_output, **arguments: Any) -> tuple[dict[str, Any], Any]:
    out, data = generated(tool, validate_output, **arguments)
    symbol = read_one(data, out["file"]["media_type"])
    assert symbol.text == out["payload"]
    return out, symbol


def error_of(tool: str, **arguments: Any) -> str:
    out = call(tool, **arguments).structured_content
    assert (out.get("is_error"), out.get("code")) == (True, "invalid_arguments"), out
    return out["error"]


# ---------------------------------------------------------------- qr_generate


@pytest.mark.parametrize("fmt", ["png", "svg"])
@pytest.mark.parametrize("data", ["https://example.com/?q=1&r=2", "Árvíztűrő tükörfúrógép 🙂", "0123456789" * 30])
def test_generate_round_trips(validate_output, data: str, fmt: str) -> None:
    out, symbol = round_trip("qr_generate", validate_output, data=data, format=fmt)
    assert out["payload"] == data
    assert (out["symbol"]["kind"], symbol.format) == ("qr", "QRCode")
    assert out["file"]["filename"] == f"qr.{fmt}"


def test_generate_options_shape_the_symbol(validate_output) -> None:
    out, data = generated("qr_generate", validate_output, data="HELLO", error_correction="H", scale=3, border=1)
    version = int(out["symbol"]["version"])
    side = (17 + 4 * version + 2 * 1) * 3
    assert (out["symbol"]["width_px"], out["symbol"]["error_correction"]) == (side, "H")
    assert Image.open(io.BytesIO(data)).size == (side, side)
    assert read_one(data, "image/png").text == "HELLO"


@pytest.mark.parametrize("fmt", ["png", "svg"])
def test_micro_qr_round_trips(validate_output, fmt: str) -> None:
    out, symbol = round_trip("qr_generate", validate_output, data="12345", micro=True, format=fmt)
    assert (out["symbol"]["kind"], out["symbol"]["version"][0], symbol.format) == ("micro_qr", "M", "MicroQRCode")


def test_too_much_data_is_an_argument_error() -> None:
    assert error_of("qr_generate", data="x" * 3000).startswith("data: too long for a QR code")
    assert error_of("qr_generate", data="x" * 40, micro=True).startswith("data: too long for a Micro QR code")
    assert error_of("qr_generate", data="x" * 2000, scale=50).startswith("scale: the image would be")


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({"data": ""}, "data"),
        ({"data": "x", "format": "gif"}, "format"),
        ({"data": "x", "scale": 0}, "scale"),
        ({"data": "x", "error_correction": "X"}, "error_correction"),
        ({"data": "x", "border": 21}, "border"),
    ],
)
def test_generate_bad_arguments_name_the_field(arguments: dict, field: str) -> None:
    assert f"{field}:" in error_of("qr_generate", **arguments)


# ---------------------------------------------------------------- wifi / vcard / geo / epc


@pytest.mark.parametrize("fmt", ["png", "svg"])
def test_wifi_round_trips(validate_output, fmt: str) -> None:
    out, _ = round_trip("qr_wifi", validate_output, ssid='Home;Net,"5G"', password="p@ss:w\\rd;1", format=fmt)
    assert out["payload"] == 'WIFI:T:WPA;S:Home\\;Net\\,\\"5G\\";P:p@ss\\:w\\\\rd\\;1;;'


def test_wifi_bad_arguments() -> None:
    assert "password: required for WPA" in error_of("qr_wifi", ssid="x")


def test_vcard_round_trips(validate_output) -> None:
    out, _ = round_trip(
        "qr_vcard",
        validate_output,
        name="Dr. Kovács, Anna",
        given_name="Anna",
        family_name="Kovács",
        phones=["+36 1 234 5678", "+36 30 123 4567"],
        emails=["anna@example.com"],
        org="Acme; Labs",
        note="first line\nsecond, line",
    )
    assert "FN:Dr. Kovács\\, Anna\r\n" in out["payload"]
    assert "NOTE:first line\\nsecond\\, line\r\n" in out["payload"]


def test_vcard_bad_arguments() -> None:
    assert "name:" in error_of("qr_vcard", name="")
    assert "emails:" in error_of("qr_vcard", name="x", emails=["a@b.c"] * 6)


def test_geo_round_trips(validate_output) -> None:
    out, _ = round_trip("qr_geo", validate_output, latitude=47.4979, longitude=19.0402, altitude=102.5, format="svg")
    assert out["payload"] == "geo:47.4979,19.0402,102.5"


def test_geo_bad_arguments() -> None:
    assert "longitude:" in error_of("qr_geo", latitude=0, longitude=181)


def test_epc_round_trips_at_level_m(validate_output) -> None:
    out, symbol = round_trip(
        "qr_epc",
        validate_output,
        name="Magyar Vöröskereszt",
        iban="DE89 3704 0044 0532 0130 00",
        bic="COBADEFFXXX",
        amount="25.00",
        text="Adomány / Spende",
    )
    assert out["payload"].split("\n")[:8] == [
        "BCD",
        "002",
        "1",
        "SCT",
        "COBADEFFXXX",
        "Magyar Vöröskereszt",
        "DE89370400440532013000",
        "EUR25.00",
    ]
    assert (out["symbol"]["error_correction"], symbol.error_correction) == ("M", "M")
    assert int(out["symbol"]["version"]) <= 13


def test_epc_payload_limit(validate_output) -> None:
    error = error_of(
        "qr_epc",
        name="N" * 70,
        iban="DE89370400440532013000",
        bic="COBADEFFXXX",
        amount=1,
        purpose="GDDS",
        text="ű" * 140,
        information="I" * 70,
    )
    assert "EPC069-12 allows 331" in error


def test_epc_bad_arguments() -> None:
    assert error_of("qr_epc", name="Anna", iban="DE89370400440532013001").startswith("iban:")
    assert "amount" in error_of("qr_epc", name="Anna", iban="DE89370400440532013000", amount="-1")


# ---------------------------------------------------------------- barcodes


@pytest.mark.parametrize(
    ("symbology", "data", "payload", "zxing_format"),
    [
        ("ean13", "4006381333931", "4006381333931", "EAN13"),
        ("ean13", "400638133393", "4006381333931", "EAN13"),
        ("ean8", "96385074", "96385074", "EAN8"),
        ("upca", "036000291452", "036000291452", "UPCA"),
        ("upca", "03600029145", "036000291452", "UPCA"),
        ("itf", "12345678", "12345678", "ITF"),
        ("code39", "HELLO-123 $", "HELLO-123 $", "Code39"),
        ("code128", "Hello, 128!", "Hello, 128!", "Code128"),
        ("datamatrix", "Árvíztűrő tükörfúrógép", "Árvíztűrő tükörfúrógép", "DataMatrix"),
        ("pdf417", "PDF417 with ű", "PDF417 with ű", "PDF417"),
    ],
)
@pytest.mark.parametrize("fmt", ["png", "svg"])
def test_barcodes_round_trip(
    validate_output, symbology: str, data: str, payload: str, zxing_format: str, fmt: str
) -> None:
    out, symbol = round_trip("qr_barcode", validate_output, data=data, symbology=symbology, format=fmt, scale=3)
    assert (out["payload"], out["symbol"]["kind"], symbol.format) == (payload, symbology, zxing_format)


def test_barcode_with_text_still_scans(validate_output) -> None:
    round_trip("qr_barcode", validate_output, data="4006381333931", symbology="ean13", human_readable=True)


def test_barcode_errors() -> None:
    assert "Invalid check digit" in error_of("qr_barcode", data="4006381333932", symbology="ean13")
    assert "symbology:" in error_of("qr_barcode", data="1", symbology="aztec")
    assert "ean8 takes" in error_of("qr_barcode", data="12", symbology="ean8")


# ---------------------------------------------------------------- qr_decode


def _png(qr: segno.QRCode, **kw: Any) -> bytes:
    out = io.BytesIO()
    qr.save(out, kind="png", **kw)
    return out.getvalue()


def test_decode_base64_and_staging_id_find_every_symbol(validate_output) -> None:
    left = Image.open(io.BytesIO(_png(segno.make_qr("left one"), scale=6))).convert("L")
    right = Image.open(io.BytesIO(_png(segno.make_qr("right one"), scale=6))).convert("L")
    canvas = Image.new("L", (left.width + right.width + 40, max(left.height, right.height) + 20), 255)
    canvas.paste(left, (0, 10))
    canvas.paste(right, (left.width + 40, 10))
    jpeg = io.BytesIO()
    canvas.save(jpeg, format="JPEG", quality=90)

    out = validate_output(
        "qr_decode", call("qr_decode", image=base64.b64encode(jpeg.getvalue()).decode()).structured_content
    )
    assert out["count"] == 2
    assert sorted(s["text"] for s in out["symbols"]) == ["left one", "right one"]
    assert out["image"] == {"width": canvas.width, "height": canvas.height, "format": "JPEG"}
    right_symbol = next(s for s in out["symbols"] if s["text"] == "right one")
    assert right_symbol["position"]["top_left"]["x"] > left.width

    staged = service_store().put(ACCOUNT, jpeg.getvalue(), "image/jpeg")
    again = validate_output("qr_decode", call("qr_decode", image=staged.id).structured_content)
    assert again["symbols"] == out["symbols"]


def test_decode_reports_binary_content(validate_output) -> None:
    raw = b"\x00\xffbinary\x10"
    png = _png(segno.make_qr(raw), scale=5)
    out = validate_output("qr_decode", call("qr_decode", image=base64.b64encode(png).decode()).structured_content)
    (symbol,) = out["symbols"]
    assert (symbol["content_type"], base64.b64decode(symbol["bytes_base64"])) == ("Binary", raw)


def test_decode_transparent_background(validate_output) -> None:
    png = _png(segno.make_qr("on glass"), scale=5, light=None)
    source = Image.open(io.BytesIO(png))
    assert "transparency" in source.info or source.mode in ("RGBA", "LA")
    out = validate_output("qr_decode", call("qr_decode", image=base64.b64encode(png).decode()).structured_content)
    assert [s["text"] for s in out["symbols"]] == ["on glass"]


def test_decode_nothing_found_is_an_empty_answer(validate_output) -> None:
    blank = io.BytesIO()
    Image.new("L", (50, 50), 255).save(blank, format="PNG")
    out = validate_output(
        "qr_decode", call("qr_decode", image=base64.b64encode(blank.getvalue()).decode()).structured_content
    )
    assert (out["count"], out["symbols"]) == (0, [])


def test_decode_refuses_non_images_bombs_and_foreign_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    assert error_of("qr_decode", image=base64.b64encode(b"%PDF-1.4 not an image").decode()).startswith(
        "invalid arguments"
    )
    assert "image: not a readable picture" in error_of(
        "qr_decode", image=base64.b64encode(b"\x89PNG\r\n\x1a\nbroken").decode()
    )

    monkeypatch.setattr(decoding, "MAX_PIXELS", 100)
    big = io.BytesIO()
    Image.new("L", (20, 20), 255).save(big, format="PNG")
    assert "image: more than" in error_of("qr_decode", image=base64.b64encode(big.getvalue()).decode())

    other = service_store().put("acct_other", big.getvalue(), "image/png")
    out = call("qr_decode", image=other.id).structured_content
    assert (out["is_error"], out["code"]) == (True, "not_found")
    assert "image:" in error_of("qr_decode", image="")


# ---------------------------------------------------------------- status and prices


def test_status(validate_output, registry) -> None:
    out = validate_output("qr_status", call("qr_status").structured_content)
    assert out["symbologies"] == ["ean13", "ean8", "code128", "code39", "upca", "itf", "datamatrix", "pdf417"]
    assert {"QRCode", "MicroQRCode", "EAN13", "DataMatrix"} <= set(out["decodable"])
    prices = {spec.name: spec.price for spec in registry.for_service("qr")}
    assert prices == {
        "qr_generate": 1,
        "qr_decode": 2,
        "qr_wifi": 1,
        "qr_vcard": 1,
        "qr_geo": 1,
        "qr_epc": 1,
        "qr_barcode": 1,
        "qr_status": 0,
    }
