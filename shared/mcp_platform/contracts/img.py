"""img: image facts and transforms (Pillow), files in and out through staging."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from mcp_platform.catalogue.registry import Annotations, ToolInput, ToolSpec
from mcp_platform.contracts._common import status_output_schema, status_tool
from mcp_platform.protocol.binary import STAGED_OBJECT_SCHEMA, binary_input

IMAGE_MAX_BYTES = 20 * 1024 * 1024
MAX_PIXELS = 40_000_000
"""Decompression-bomb limit: larger images are refused before they are decoded."""
MAX_SIDE = 10_000

OutputFormat = Literal["png", "jpeg", "webp", "gif", "tiff", "heic"]

_Image = binary_input(
    "The image (PNG, JPEG, WebP, GIF, TIFF, BMP or HEIC).",
    max_bytes=IMAGE_MAX_BYTES,
    media_types=("image/*",),
    argument="image",
)


class InfoInput(ToolInput):
    image: _Image  # type: ignore[valid-type]  # an Annotated type built by binary_input


class Resize(ToolInput):
    width: int | None = Field(default=None, ge=1, le=MAX_SIDE, description="Target width in pixels.")
    height: int | None = Field(default=None, ge=1, le=MAX_SIDE, description="Target height in pixels.")
    fit: Literal["contain", "cover", "stretch"] = Field(
        default="contain",
        description="contain: fit inside width x height keeping proportions; cover: fill it and crop the "
        "overflow; stretch: exactly width x height. With only one side given, the other keeps proportions.",
    )

    @model_validator(mode="after")
    def _one_side(self) -> Resize:
        if self.width is None and self.height is None:
            raise ValueError("give width, height or both")
        return self


class Crop(ToolInput):
    left: int = Field(ge=0, description="Pixels from the left edge of the original image.")
    top: int = Field(ge=0, description="Pixels from the top edge.")
    width: int = Field(ge=1, le=MAX_SIDE)
    height: int = Field(ge=1, le=MAX_SIDE)


class TransformInput(ToolInput):
    image: _Image  # type: ignore[valid-type]  # an Annotated type built by binary_input
    crop: Crop | None = Field(default=None, description="Cut out a box first (in the original's pixels).")
    rotate: int = Field(
        default=0, ge=-360, le=360, description="Degrees counter-clockwise, applied after crop; the canvas grows."
    )
    resize: Resize | None = Field(default=None, description="Scale last.")
    format: OutputFormat | None = Field(default=None, description="Output format; default: the input's format.")
    quality: int = Field(default=85, ge=1, le=100, description="JPEG, WebP and HEIC quality.")
    strip_metadata: bool = Field(
        default=False,
        description="Remove EXIF (camera, GPS location), XMP, ICC and text chunks from the output.",
    )

    @model_validator(mode="after")
    def _does_something(self) -> TransformInput:
        if (
            self.crop is None
            and self.resize is None
            and not self.rotate % 360
            and self.format is None
            and not (self.strip_metadata)
        ):
            raise ValueError("nothing to do: give crop, rotate, resize, format or strip_metadata")
        return self


_GPS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "Location recorded in the EXIF data; present means the image reveals where it was taken.",
    "properties": {
        "present": {"type": "boolean"},
        "latitude": {"type": "number"},
        "longitude": {"type": "number"},
        "altitude_m": {"type": "number"},
    },
    "required": ["present"],
    "additionalProperties": False,
}

_IMAGE_FACTS: dict[str, Any] = {
    "format": {"type": "string", "description": "PNG, JPEG, WEBP, GIF, TIFF, HEIF, ..."},
    "media_type": {"type": "string"},
    "width": {"type": "integer"},
    "height": {"type": "integer"},
    "mode": {"type": "string", "description": "Pillow mode: RGB, RGBA, L, P, CMYK, ..."},
}

_NEW_FILE = Annotations(read_only=False, idempotent=False)
"""Each call stores a new file: not read-only, not idempotent."""

TOOLS = [
    ToolSpec(
        name="img_info",
        service="img",
        title="Image info",
        description="Reads an image's format, pixel size, colour mode, frame count and EXIF tags, and flags "
        "whether EXIF contains a GPS location (with the coordinates). 1 credit.",
        input_model=InfoInput,
        output_schema={
            "type": "object",
            "properties": {
                **_IMAGE_FACTS,
                "size_bytes": {"type": "integer"},
                "frames": {"type": "integer"},
                "has_alpha": {"type": "boolean"},
                "exif": {
                    "type": "object",
                    "description": "EXIF tags by name (text values capped at 200 characters).",
                    "additionalProperties": {"type": ["string", "number", "integer", "boolean"]},
                },
                "gps": _GPS_SCHEMA,
            },
            "required": [*_IMAGE_FACTS, "size_bytes", "frames", "has_alpha", "exif", "gps"],
            "additionalProperties": False,
        },
        price=1,
    ),
    ToolSpec(
        name="img_transform",
        service="img",
        title="Transform an image",
        description="Crops, rotates, resizes (down to a thumbnail), converts (PNG, JPEG, WebP, GIF, TIFF, HEIC) "
        "and/or strips "
        "metadata, in that order; orientation from EXIF is applied first. Returns the result as a staged "
        "file (download URL, or pass file.id to another tool) and inline when small. Animated images keep "
        "their first frame only. 1 credit.",
        input_model=TransformInput,
        output_schema={
            "type": "object",
            "properties": {
                **_IMAGE_FACTS,
                "file": STAGED_OBJECT_SCHEMA,
                "metadata_stripped": {"type": "boolean"},
            },
            "required": [*_IMAGE_FACTS, "file", "metadata_stripped"],
            "additionalProperties": False,
        },
        annotations=_NEW_FILE,
        price=1,
    ),
    status_tool(
        "img",
        title="Image service status",
        description="Pillow version, readable and writable formats (HEIC when available) and limits. Free.",
        output_schema=status_output_schema(
            {
                "backend": {"type": "string"},
                "heic": {"type": "boolean"},
                "output_formats": {"type": "array", "items": {"type": "string"}},
                "limits": {
                    "type": "object",
                    "properties": {
                        "max_bytes": {"type": "integer"},
                        "max_pixels": {"type": "integer"},
                        "max_side": {"type": "integer"},
                    },
                    "required": ["max_bytes", "max_pixels", "max_side"],
                    "additionalProperties": False,
                },
                "version": {"type": "string"},
            },
            required=["backend", "heic", "output_formats", "limits", "version"],
        ),
    ),
]
