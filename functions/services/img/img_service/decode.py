"""Opening untrusted images safely: pixel limits before decoding, errors a caller can act on."""

from __future__ import annotations

import io
import warnings

from PIL import Image, UnidentifiedImageError

from mcp_platform.contracts.img import MAX_PIXELS
from mcp_platform.protocol.errors import ErrorCode, ToolError

try:
    import pillow_heif

    pillow_heif.register_heif_opener()
    HEIC = True
except ImportError:  # the local default may lack the wheel; HEIC is then reported unavailable
    HEIC = False

# Pillow refuses anything over twice this outright; `open_image` refuses anything over it.
Image.MAX_IMAGE_PIXELS = MAX_PIXELS


def open_image(data: bytes) -> Image.Image:
    """Open (header only) and check the pixel count; `ToolError(invalid_arguments)` on any refusal."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
    except (UnidentifiedImageError, Image.DecompressionBombWarning, Image.DecompressionBombError) as exc:
        raise _refused(exc) from None
    if image.width * image.height > MAX_PIXELS:
        raise _refused(f"{image.width}x{image.height} pixels is over the {MAX_PIXELS} pixel limit")
    return image


def load_pixels(image: Image.Image) -> Image.Image:
    """Decode the pixel data; a truncated or corrupt file becomes `invalid_arguments`."""
    try:
        image.load()
    except (OSError, SyntaxError, ValueError) as exc:
        raise _refused(f"the image data is corrupt ({exc})") from None
    return image


def _refused(reason: object) -> ToolError:
    if isinstance(reason, UnidentifiedImageError):
        reason = "not an image format this service reads"
    return ToolError(f"image: {reason}", ErrorCode.INVALID_ARGUMENTS)
