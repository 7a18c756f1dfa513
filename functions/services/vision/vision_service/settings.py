"""vision's settings: its template.yaml environment (and Globals), parsed once per container."""

from __future__ import annotations

from typing import Literal

from mcp_platform.runtime.settings import LlmSettings, StagingSettings, settings_of


class Settings(StagingSettings, LlmSettings):
    vision_ocr_engine: Literal["rekognition", "rapidocr"] = "rekognition"
    """`rekognition` (the template) or `rapidocr` (the local default: PP-OCR from the rapidocr wheel)."""
    vision_labels_engine: Literal["rekognition", "none"] = "rekognition"
    """`rekognition` (the template) or `none` (the local default has no labeller)."""


settings = settings_of(Settings)
