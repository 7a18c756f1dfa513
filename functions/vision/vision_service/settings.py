"""vision's settings: its template.yaml environment (and Globals), parsed once per container."""

from __future__ import annotations

from functools import cache
from typing import Literal

from mcp_platform.settings import LlmSettings, StagingSettings


class Settings(StagingSettings, LlmSettings):
    vision_ocr_engine: Literal["rekognition", "rapidocr"] = "rekognition"
    """`rekognition` (the template) or `rapidocr` (the local default: PP-OCR from the rapidocr wheel)."""
    vision_labels_engine: Literal["rekognition", "none"] = "rekognition"
    """`rekognition` (the template) or `none` (the local default has no labeller)."""


@cache
def settings() -> Settings:
    """Parsed on first use; app.py asks at import, so a missing variable fails the cold start."""
    return Settings.from_env()
