"""Read back what the qr tools drew, with qr_decode's own reader: over PNG, or over SVG rasterised by cairosvg."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import cairosvg
from PIL import Image

from qr_service.decoding import read_symbols as read_image

if TYPE_CHECKING:
    from mcp_platform.contracts.qr import DecodedSymbol


def read_symbols(data: bytes, media_type: str) -> list[DecodedSymbol]:
    if media_type == "image/svg+xml":
        data = cairosvg.svg2png(bytestring=data, background_color="white")
    else:
        assert media_type == "image/png"
    return read_image(Image.open(io.BytesIO(data)).convert("L"))


def read_one(data: bytes, media_type: str) -> DecodedSymbol:
    symbols = read_symbols(data, media_type)
    assert len(symbols) == 1, [s.text for s in symbols]
    return symbols[0]
