"""qr_decode: every barcode zxing-cpp finds in a picture.

Pillow opens the picture with a pixel cap (a decompression bomb is refused, not
decoded), applies its EXIF rotation so positions match what a viewer shows, and
flattens transparency onto white (a transparent background would otherwise turn
black and hide a dark symbol).
"""

from __future__ import annotations

import base64
import io
import warnings
from typing import TYPE_CHECKING

import zxingcpp
from PIL import Image, ImageOps, UnidentifiedImageError

from mcp_platform.contracts.qr import DecodedSymbol, DecodeInput, DecodeOutput, Point, Position
from mcp_platform.protocol.errors import ErrorCode, ToolError

if TYPE_CHECKING:
    from mcp_platform.runtime.service import ServiceContext

MAX_PIXELS = 40_000_000


def qr_decode(arguments: DecodeInput, ctx: ServiceContext) -> DecodeOutput:
    blob = arguments.image.load(ctx)
    image, fmt = open_image(blob.data)
    symbols = read_symbols(image)
    return DecodeOutput(
        count=len(symbols),
        symbols=symbols,
        image={"width": image.width, "height": image.height, "format": fmt},
    )


def read_symbols(image: Image.Image) -> list[DecodedSymbol]:
    """Every symbol zxing-cpp finds in a greyscale image, as the tool reports it."""
    return [_symbol(barcode) for barcode in zxingcpp.read_barcodes(image)]


def open_image(data: bytes) -> tuple[Image.Image, str]:
    """A greyscale image ready for zxing-cpp, and the file's format name."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as source:
                fmt = source.format or "unknown"
                if source.width * source.height > MAX_PIXELS:
                    raise Image.DecompressionBombError("too many pixels")
                image = ImageOps.exif_transpose(source)
                image.load()
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ToolError(
            f"image: more than {MAX_PIXELS // 1_000_000} million pixels; scale it down first",
            ErrorCode.INVALID_ARGUMENTS,
        ) from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as exc:
        raise ToolError(f"image: not a readable picture ({type(exc).__name__})", ErrorCode.INVALID_ARGUMENTS) from None
    return _on_white(image), fmt


def _on_white(image: Image.Image) -> Image.Image:
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        background = Image.new("RGBA", rgba.size, "white")
        return Image.alpha_composite(background, rgba).convert("L")
    return image.convert("L")


def _symbol(barcode: zxingcpp.Result) -> DecodedSymbol:
    p = barcode.position
    binary = barcode.content_type == zxingcpp.ContentType.Binary
    text, fmt = barcode.text, barcode.format.name
    if fmt == "EAN13" and len(text) == 13 and text.startswith("0"):
        # A UPC-A is an EAN-13 with a leading zero; zxing-cpp 3 reports it as EAN-13.
        text, fmt = text[1:], "UPCA"
    return DecodedSymbol(
        text=text,
        format=fmt,
        content_type=barcode.content_type.name,
        bytes_base64=base64.b64encode(barcode.bytes).decode("ascii") if binary else None,
        error_correction=barcode.ec_level or None,
        orientation=barcode.orientation,
        position=Position(
            top_left=Point(x=p.top_left.x, y=p.top_left.y),
            top_right=Point(x=p.top_right.x, y=p.top_right.y),
            bottom_right=Point(x=p.bottom_right.x, y=p.bottom_right.y),
            bottom_left=Point(x=p.bottom_left.x, y=p.bottom_left.y),
        ),
    )
