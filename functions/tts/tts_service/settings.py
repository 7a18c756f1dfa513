"""tts's settings: its template.yaml environment (and Globals), parsed once per container."""

from __future__ import annotations

from functools import cache
from typing import Literal

from mcp_platform.settings import StagingSettings


class Settings(StagingSettings):
    tts_engine: Literal["polly", "espeak"] = "polly"
    """`polly` in the template; `espeak` (espeak-ng, offline) in the local default."""


@cache
def settings() -> Settings:
    """Parsed on first use; app.py asks at import, so a missing variable fails the cold start."""
    return Settings.from_env()
