"""Barcodes (zxing-cpp) as a grid of modules, drawn here to PNG and SVG.

zxing-cpp 2.2, the newest release with wheels for the Lambda runtime's glibc,
only writes a bitmap with one pixel per module and no quiet zone, bar height,
caption or SVG. `BarcodeDrawing` adds the standard quiet zone and, for linear
symbols, the bar height and the optional caption, and draws the same grid to
PNG (Pillow) and SVG (one path), so both formats show identical modules.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from itertools import groupby
from typing import TYPE_CHECKING, NamedTuple
from xml.sax.saxutils import escape

import zxingcpp
from PIL import Image, ImageDraw, ImageFont, ImageOps

if TYPE_CHECKING:
    from mcp_platform.contracts.qr import Symbology

ZXING_FORMATS = {
    "ean13": zxingcpp.BarcodeFormat.EAN13,
    "ean8": zxingcpp.BarcodeFormat.EAN8,
    "upca": zxingcpp.BarcodeFormat.UPCA,
    "itf": zxingcpp.BarcodeFormat.ITF,
    "code39": zxingcpp.BarcodeFormat.Code39,
    "code128": zxingcpp.BarcodeFormat.Code128,
    "datamatrix": zxingcpp.BarcodeFormat.DataMatrix,
    "pdf417": zxingcpp.BarcodeFormat.PDF417,
}
BAR_HEIGHT = 50
"""Modules; zxing-cpp writes a linear symbol one module high."""
CAPTION_HEIGHT = 10
"""Modules under the bars that hold the human-readable text."""
CAPTION_SIZE = 8
"""Largest caption font size, in modules; a long caption is set smaller to fit the width."""
_GLYPH_WIDTH = 0.6
"""Approximate advance of a digit or capital per unit of font size."""


class QuietZone(NamedTuple):
    left: int
    right: int
    vertical: int


# The blank margin each symbology's standard asks for, in modules (GS1, ISO/IEC 16390, 16388, 15417,
# 16022, 15438).
QUIET_ZONES: dict[str, QuietZone] = {
    "ean13": QuietZone(11, 7, 0),
    "ean8": QuietZone(7, 7, 0),
    "upca": QuietZone(9, 9, 0),
    "itf": QuietZone(10, 10, 0),
    "code39": QuietZone(10, 10, 0),
    "code128": QuietZone(10, 10, 0),
    "datamatrix": QuietZone(1, 1, 1),
    "pdf417": QuietZone(2, 2, 2),
}
LINEAR = frozenset({"ean13", "ean8", "upca", "itf", "code39", "code128"})
_DARK_RUN = re.compile(rb"\x00+")


@dataclass(frozen=True)
class BarcodeDrawing:
    modules: Image.Image
    """Mode "L", one pixel per module: 0 dark, 255 light; quiet zone and caption band included."""
    caption: str | None
    """Printed centred in the bottom `CAPTION_HEIGHT` modules."""

    def size(self, scale: int) -> tuple[int, int]:
        return self.modules.width * scale, self.modules.height * scale

    def png(self, scale: int) -> bytes:
        image = self.modules.resize(self.size(scale), Image.Resampling.NEAREST)
        if self.caption:
            x, y, font_size = self._caption_place(self.caption)
            font = ImageFont.load_default(font_size * scale)
            ImageDraw.Draw(image).text((x * scale, y * scale), self.caption, fill=0, font=font, anchor="ms")
        out = io.BytesIO()
        image.save(out, format="PNG", optimize=True)
        return out.getvalue()

    def svg(self, scale: int) -> bytes:
        """The modules as one path in a viewBox of module units, sized `scale` px per module."""
        width, height = self.modules.size
        parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width * scale}" height="{height * scale}" '
            f'viewBox="0 0 {width} {height}" shape-rendering="crispEdges">',
            '<rect width="100%" height="100%" fill="#fff"/>',
            f'<path fill="#000" d="{module_path(self.modules)}"/>',
        ]
        if self.caption:
            x, y, font_size = self._caption_place(self.caption)
            parts.append(
                f'<text x="{x:g}" y="{y:g}" font-family="sans-serif" font-size="{font_size:g}" '
                f'text-anchor="middle">{escape(self.caption)}</text>'
            )
        parts.append("</svg>")
        return "".join(parts).encode()

    def _caption_place(self, caption: str) -> tuple[float, int, int]:
        """Centre x, baseline y and font size of the caption, in modules."""
        fitting = int(self.modules.width / (_GLYPH_WIDTH * len(caption)))
        return self.modules.width / 2, self.modules.height - 2, max(1, min(CAPTION_SIZE, fitting))


def draw_barcode(data: str, symbology: Symbology, *, quiet_zone: bool, caption: str | None) -> BarcodeDrawing:
    """Encode `data`; `ValueError` when the symbology cannot carry it. The caption is kept for linear symbols."""
    bitmap = zxingcpp.create_barcode(data, ZXING_FORMATS[symbology]).to_image(add_quiet_zones=False)
    height, width = bitmap.shape
    image = Image.frombytes("L", (width, height), bytes(memoryview(bitmap)))
    linear = symbology in LINEAR
    if linear:
        image = image.resize((width, BAR_HEIGHT), Image.Resampling.NEAREST)
    zone = QUIET_ZONES[symbology] if quiet_zone else QuietZone(0, 0, 0)
    caption = caption if linear else None
    bottom = zone.vertical + (CAPTION_HEIGHT if caption else 0)
    return BarcodeDrawing(ImageOps.expand(image, (zone.left, zone.vertical, zone.right, bottom), fill=255), caption)


def module_path(modules: Image.Image) -> str:
    """SVG path data covering every dark module; identical neighbouring rows become one band."""
    width = modules.width
    pixels = modules.tobytes()
    rows = [pixels[y : y + width] for y in range(0, len(pixels), width)]
    path: list[str] = []
    top = 0
    for row, band in groupby(rows):
        band_height = len(list(band))
        for run in _DARK_RUN.finditer(row):
            run_width = run.end() - run.start()
            path.append(f"M{run.start()} {top}h{run_width}v{band_height}h-{run_width}z")
        top += band_height
    return "".join(path)
