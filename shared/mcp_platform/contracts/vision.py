"""vision: what an image shows — a description by the platform's multimodal model, labels by Amazon
Rekognition, and text (OCR) by Rekognition in AWS or RapidOCR (PP-OCR models) in the local default.

A tool whose backend is not configured answers `provider_not_configured` naming the setting; it
costs nothing.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from mcp_platform.catalogue.registry import Annotations, ToolInput, ToolSpec
from mcp_platform.contracts._common import StatusOutput, status_tool
from mcp_platform.protocol.binary import binary_input
from mcp_platform.protocol.schema import output_schema

SERVICE = "vision"
MAX_IMAGE_BYTES = 5 * 1024 * 1024
"""Rekognition's limit for image bytes; other backends take the same cap."""
_IMAGE = binary_input(
    "The image (PNG, JPEG, GIF, WebP, BMP or TIFF).",
    max_bytes=MAX_IMAGE_BYTES,
    media_types=("image/*",),
    argument="image",
)


class DescribeInput(ToolInput):
    image: _IMAGE  # type: ignore[valid-type]
    prompt: str | None = Field(
        default=None,
        min_length=1,
        max_length=2_000,
        description="What to look for or answer about the image; default: a general description.",
    )
    detail: Literal["brief", "detailed"] = Field(default="brief", description="About 2 sentences, or a full paragraph.")


class LabelsInput(ToolInput):
    image: _IMAGE  # type: ignore[valid-type]
    max_labels: int = Field(default=10, ge=1, le=100)
    min_confidence: float = Field(default=60.0, ge=0, le=100, description="Percent.")


class OcrInput(ToolInput):
    image: _IMAGE  # type: ignore[valid-type]


class Box(BaseModel):
    left: float = Field(description="Fractions of the image width and height, 0-1, from the top left.")
    top: float
    width: float
    height: float


class Label(BaseModel):
    name: str
    confidence: float = Field(description="Percent.")
    parents: list[str] = Field(default_factory=list)
    boxes: list[Box] = Field(default_factory=list, description="Where instances of the label are.")


class TextLine(BaseModel):
    text: str
    confidence: float = Field(description="Percent.")
    box: Box


class DescribeOutput(BaseModel):
    description: str
    model: str
    input_tokens: int | None = None
    output_tokens: int | None = None


class LabelsOutput(BaseModel):
    engine: str
    count: int
    labels: list[Label]


class OcrOutput(BaseModel):
    engine: str
    text: str = Field(description="Every line, top to bottom, joined by newlines.")
    lines: list[TextLine]
    words: list[TextLine]


class VisionStatus(StatusOutput):
    describe: str = Field(description="The model behind vision_describe, or what is missing.")
    labels: str
    ocr: str
    missing: list[str] = Field(description="Settings still to configure.")
    max_image_bytes: int


_tool = {"service": SERVICE, "annotations": Annotations(read_only=True, idempotent=True, open_world=False)}

TOOLS = [
    ToolSpec(
        name="vision_describe",
        title="Describe an image",
        description="Describes an image, or answers a question about it, with the platform's multimodal model "
        "(Amazon Bedrock, Gemini or an OpenAI-compatible vision model). 5 credits.",
        input_model=DescribeInput,
        output_schema=output_schema(DescribeOutput),
        price=5,
        **_tool,  # type: ignore[arg-type]
    ),
    ToolSpec(
        name="vision_labels",
        title="Label an image",
        description="Objects, scenes and concepts in an image with confidences, parent categories and boxes "
        "(Amazon Rekognition DetectLabels). 2 credits.",
        input_model=LabelsInput,
        output_schema=output_schema(LabelsOutput),
        price=2,
        **_tool,  # type: ignore[arg-type]
    ),
    ToolSpec(
        name="vision_ocr",
        title="Read the text in an image",
        description="Reads printed text in a photo, screenshot or scan: lines and words with confidences and boxes "
        "(Amazon Rekognition DetectText in AWS, RapidOCR locally). 2 credits.",
        input_model=OcrInput,
        output_schema=output_schema(OcrOutput),
        price=2,
        **_tool,  # type: ignore[arg-type]
    ),
    status_tool(
        SERVICE,
        title="vision service status",
        description="Which backend serves each tool and which settings are missing. Free.",
        output_schema=output_schema(VisionStatus),
    ),
]
