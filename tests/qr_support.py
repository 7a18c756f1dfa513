"""Read back what the qr tools drew: zxing-cpp over PNG, or over SVG rasterised by cairosvg."""

from __future__ import annotations

import io

import cairosvg
import zxingcpp
from PIL import Image


def read_symbols(data: bytes, media_type: str) -> list[zxingcpp.Result]:
    if media_type == "image/svg+xml":
        data = cairosvg.svg2png(bytestring=data, background_color="white")
    else:
        assert media_type == "image/png"
    return zxingcpp.read_barcodes(Image.open(io.BytesIO(data)))


def read_one(data: bytes, media_type: str) -> zxingcpp.Result:
    symbols = read_symbols(data, media_type)
    assert len(symbols) == 1, [s.text for s in symbols]
    return symbols[0]
