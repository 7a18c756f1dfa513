"""tts's settings: its template.yaml environment (and Globals), parsed once per container."""

from __future__ import annotations

from typing import Literal

from mcp_platform.runtime.settings import StagingSettings, settings_of


class Settings(StagingSettings):
    tts_engine: Literal["polly", "espeak"] = "polly"
    """`polly` in the template; `espeak` (espeak-ng, offline) in the local default."""


settings = settings_of(Settings)
