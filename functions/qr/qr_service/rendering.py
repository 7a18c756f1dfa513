"""Drawing symbols: segno for QR / Micro QR, zxing-cpp for barcodes; bytes out.

`Rendered` is the one shape every generator produces; `output.py` turns it into
a staged file. Image size is checked before drawing so a huge scale is an
argument error, not a memory blow-up.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import segno
import zxingcpp
from PIL import Image

from mcp_platform.contracts.qr import MAX_IMAGE_SIDE_PX, ImageOptions, Symbol, SymbolOptions, Symbology
from mcp_platform.errors import ErrorCode, ToolError

MEDIA_TYPES = {"png": "image/png", "svg": "image/svg+xml"}
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
    try:
        barcode = zxingcpp.create_barcode(data, ZXING_FORMATS[symbology])
    except (ValueError, RuntimeError) as exc:  # zxing-cpp refuses content its symbology cannot carry
        raise ToolError(f"data: {symbology} cannot encode it ({exc})", ErrorCode.INVALID_ARGUMENTS) from None
    draw = {"scale": options.scale, "add_hrt": human_readable, "add_quiet_zones": quiet_zone}
    unit_height, unit_width = zxingcpp.write_barcode_to_image(barcode, **{**draw, "scale": 1}).shape[:2]
    width, height = unit_width * options.scale, unit_height * options.scale
    _check_size(width, height)
    if options.format == "svg":
        data_out = zxingcpp.write_barcode_to_svg(barcode, **draw).encode()
    else:
        image = zxingcpp.write_barcode_to_image(barcode, **draw)
        height, width = image.shape[:2]
        out = io.BytesIO()
        Image.frombytes("L", (width, height), bytes(memoryview(image))).save(out, format="PNG", optimize=True)
        data_out = out.getvalue()
    symbol = Symbol(kind=symbology, width_px=width, height_px=height)
    return Rendered(data_out, MEDIA_TYPES[options.format], symbol, barcode.text)


def _check_size(width: int, height: int) -> None:
    if max(width, height) > MAX_IMAGE_SIDE_PX:
        raise ToolError(
            f"scale: the image would be {width}x{height} px; at most {MAX_IMAGE_SIDE_PX} px a side, lower scale",
            ErrorCode.INVALID_ARGUMENTS,
        )
