"""Barcode module grids drawn to PNG and SVG: same modules in both, standard quiet zones, readable captions."""

from __future__ import annotations

import io
import typing

import cairosvg
import pytest
from PIL import Image

from mcp_platform.contracts.qr import Symbology
from qr_service.barcode_drawing import (
    BAR_HEIGHT,
    CAPTION_HEIGHT,
    LINEAR,
    QUIET_ZONES,
    BarcodeDrawing,
    draw_barcode,
    module_path,
)
from qr_support import read_one

SAMPLES: dict[str, str] = {
    "ean13": "400638133393",
    "ean8": "9638507",
    "upca": "03600029145",
    "itf": "12345678",
    "code39": "HELLO-123 $",
    "code128": "Hello, 128!",
    "datamatrix": "Árvíztűrő tükörfúrógép",
    "pdf417": "PDF417 with ű",
}


def grid(rows: list[str]) -> Image.Image:
    """A module image from rows of '#' (dark) and '.' (light)."""
    data = bytes(0 if cell == "#" else 255 for row in rows for cell in row)
    return Image.frombytes("L", (len(rows[0]), len(rows)), data)


def rasterised(svg: bytes) -> Image.Image:
    return Image.open(io.BytesIO(cairosvg.svg2png(bytestring=svg))).convert("L")


def ink(image: Image.Image) -> Image.Image:
    """Dark pixels as non-zero, so `getbbox()` bounds what is drawn."""
    return Image.eval(image, lambda v: 255 - v)


def test_samples_cover_every_symbology() -> None:
    assert set(SAMPLES) == set(typing.get_args(Symbology)) == set(QUIET_ZONES)


def test_module_path_merges_equal_rows_into_bands() -> None:
    modules = grid(["#..##", "#..##", ".#...", "....."])
    assert module_path(modules) == "M0 0h1v2h-1zM3 0h2v2h-2zM1 2h1v1h-1z"
    assert module_path(grid(["..."])) == ""


@pytest.mark.parametrize("symbology", list(SAMPLES))
def test_svg_draws_exactly_the_png_modules(symbology: str) -> None:
    drawing = draw_barcode(SAMPLES[symbology], symbology, quiet_zone=True, caption=None)
    png = Image.open(io.BytesIO(drawing.png(3)))
    svg = rasterised(drawing.svg(3))
    assert png.size == svg.size == drawing.size(3)
    assert png.tobytes() == svg.tobytes()
    assert set(png.tobytes()) == {0, 255}


@pytest.mark.parametrize("symbology", list(SAMPLES))
def test_quiet_zone_is_the_standard_margin(symbology: str) -> None:
    bare = draw_barcode(SAMPLES[symbology], symbology, quiet_zone=False, caption=None).modules
    framed = draw_barcode(SAMPLES[symbology], symbology, quiet_zone=True, caption=None).modules
    zone = QUIET_ZONES[symbology]
    assert framed.size == (bare.width + zone.left + zone.right, bare.height + 2 * zone.vertical)
    symbol_box = (zone.left, zone.vertical, zone.left + bare.width, zone.vertical + bare.height)
    assert framed.crop(symbol_box) == bare
    assert ink(framed).getbbox() == symbol_box, "the quiet zone is blank"
    assert ink(bare).getbbox() == (0, 0, *bare.size), "zxing-cpp drew no margin of its own"
    if symbology in LINEAR:
        assert bare.height == BAR_HEIGHT


def test_caption_band_only_under_linear_symbols() -> None:
    linear = draw_barcode("Hello, 128!", "code128", quiet_zone=True, caption="Hello, 128!")
    assert linear.caption == "Hello, 128!"
    assert linear.modules.height == BAR_HEIGHT + CAPTION_HEIGHT
    matrix = draw_barcode("Hello", "datamatrix", quiet_zone=True, caption="Hello")
    assert matrix.caption is None
    assert matrix == draw_barcode("Hello", "datamatrix", quiet_zone=True, caption=None)


@pytest.mark.parametrize("caption", ["4006381333931", "a <caption> & more than fits" * 3])
def test_caption_is_drawn_in_its_band_and_escaped(caption: str) -> None:
    drawing = BarcodeDrawing(draw_barcode("400638133393", "ean13", quiet_zone=True, caption="x").modules, caption)
    width, height = drawing.size(2)
    for image in (Image.open(io.BytesIO(drawing.png(2))), rasterised(drawing.svg(2))):
        bars = draw_barcode("400638133393", "ean13", quiet_zone=True, caption=None).png(2)
        assert image.crop((0, 0, width, BAR_HEIGHT * 2)).tobytes() == Image.open(io.BytesIO(bars)).tobytes()
        left, top, right, bottom = ink(image.crop((0, BAR_HEIGHT * 2, width, height))).getbbox()
        assert 0 < left < right < width, "the caption fits the width"
        assert 0 < top < bottom < CAPTION_HEIGHT * 2, "the caption stays clear of the bars"


@pytest.mark.parametrize("fmt", ["png", "svg"])
def test_captioned_linear_symbols_still_scan(fmt: str) -> None:
    drawing = draw_barcode("HELLO-123 $", "code39", quiet_zone=True, caption="HELLO-123 $")
    data = drawing.svg(2) if fmt == "svg" else drawing.png(2)
    assert read_one(data, "image/svg+xml" if fmt == "svg" else "image/png").text == "HELLO-123 $"


def test_content_the_symbology_cannot_carry_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="too long"):
        draw_barcode("x" * 2000, "pdf417", quiet_zone=True, caption=None)
