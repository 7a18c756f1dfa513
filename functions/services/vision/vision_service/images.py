"""Images for the vision backends: decoded once with Pillow, re-encoded where a backend needs it."""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from PIL import Image, ImageOps, UnidentifiedImageError

from mcp_platform.protocol.errors import ErrorCode, ToolError

if TYPE_CHECKING:
    from mcp_platform.protocol.binary import BinaryRef
    from mcp_platform.runtime.service import ServiceContext

MAX_PIXELS = 40_000_000
_NATIVE = {"image/png", "image/jpeg"}
"""What Rekognition reads as it is; others (and the LLMs' other types) are converted to PNG."""


@dataclass(frozen=True)
class Picture:
    data: bytes
    media_type: str

    @cached_property
    def image(self) -> Image.Image:
        try:
            with Image.open(io.BytesIO(self.data)) as source:
                if source.width * source.height > MAX_PIXELS:
                    raise ToolError(f"image: more than {MAX_PIXELS:,} pixels", ErrorCode.INVALID_ARGUMENTS)
                return ImageOps.exif_transpose(source).convert("RGB")
        except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
            raise ToolError(
                f"image: not a readable picture ({type(exc).__name__})", ErrorCode.INVALID_ARGUMENTS
            ) from None

    def png_or_jpeg(self) -> tuple[bytes, str]:
        """The bytes as PNG or JPEG (Rekognition and every LLM take both)."""
        if self.media_type in _NATIVE:
            return self.data, self.media_type
        out = io.BytesIO()
        self.image.save(out, "PNG")
        return out.getvalue(), "image/png"


def load(ref: BinaryRef, ctx: ServiceContext) -> Picture:
    blob = ref.load(ctx)
    picture = Picture(blob.data, blob.media_type)
    _ = picture.image  # refuse an unreadable picture before any backend is asked
    return picture
