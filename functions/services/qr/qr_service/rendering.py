"""Drawing symbols: segno for QR / Micro QR, zxing-cpp (via `barcode_drawing`) for barcodes; bytes out.

`Rendered` is the one shape every generator produces; `output.py` turns it into
a staged file. Image size is checked before drawing so a huge scale is an
argument error, not a memory blow-up.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import segno

from mcp_platform.contracts.qr import (
    GS1_LENGTHS,
    MAX_IMAGE_SIDE_PX,
    ImageOptions,
    Symbol,
    Symbology,
    SymbolOptions,
    gs1_check_digit,
)
from mcp_platform.protocol.errors import ErrorCode, ToolError
from qr_service.barcode_drawing import draw_barcode

MEDIA_TYPES = {"png": "image/png", "svg": "image/svg+xml"}


@dataclass(frozen=True)
class Rendered:
    data: bytes
    media_type: str
    symbol: Symbol
    payload: str
    """What a scanner reads back."""


def qr_code(
    payload: str | bytes, error_correction: str, *, micro: bool = False, boost_error: bool = True
) -> segno.QRCode:
    """Encode with segno; data too long for any symbol is the caller's to fix."""
    make = segno.make_micro if micro else segno.make_qr
    try:
        return make(payload, error=error_correction, boost_error=boost_error)
    except segno.DataOverflowError:
        kind = "Micro QR code" if micro else "QR code"
        raise ToolError(
            f"data: too long for a {kind} at error correction {error_correction}; shorten it"
            + ("" if micro else ", lower error_correction")
            + ("" if not micro else " or set micro=false"),
            ErrorCode.INVALID_ARGUMENTS,
        ) from None


def render_qr(qr: segno.QRCode, payload: str, options: SymbolOptions) -> Rendered:
    width, height = qr.symbol_size(scale=options.scale, border=options.border)
    _check_size(width, height)
    out = io.BytesIO()
    qr.save(out, kind=options.format, scale=options.scale, border=options.border)
    symbol = Symbol(
        kind="micro_qr" if qr.is_micro else "qr",
        version=str(qr.version),
        error_correction=qr.error,
        width_px=width,
        height_px=height,
    )
    return Rendered(out.getvalue(), MEDIA_TYPES[options.format], symbol, payload)


def render_barcode(
    data: str, symbology: Symbology, options: ImageOptions, *, human_readable: bool, quiet_zone: bool
) -> Rendered:
    payload = barcode_payload(data, symbology)
    try:
        drawing = draw_barcode(data, symbology, quiet_zone=quiet_zone, caption=payload if human_readable else None)
    except ValueError as exc:  # zxing-cpp refuses content its symbology cannot carry (too long, ...)
        raise ToolError(f"data: {symbology} cannot encode it ({exc})", ErrorCode.INVALID_ARGUMENTS) from None
    width, height = drawing.size(options.scale)
    _check_size(width, height)
    data_out = drawing.svg(options.scale) if options.format == "svg" else drawing.png(options.scale)
    symbol = Symbol(kind=symbology, width_px=width, height_px=height)
    return Rendered(data_out, MEDIA_TYPES[options.format], symbol, payload)


def barcode_payload(data: str, symbology: Symbology) -> str:
    """What a scanner reads back: the data, with the EAN/UPC check digit added when it was left off."""
    if symbology in GS1_LENGTHS and len(data) == GS1_LENGTHS[symbology] - 1:
        return data + gs1_check_digit(data)
    return data


def _check_size(width: int, height: int) -> None:
    if max(width, height) > MAX_IMAGE_SIDE_PX:
        raise ToolError(
            f"scale: the image would be {width}x{height} px; at most {MAX_IMAGE_SIDE_PX} px a side, lower scale",
            ErrorCode.INVALID_ARGUMENTS,
        )
