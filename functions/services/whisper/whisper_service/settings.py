"""whisper's settings: its template.yaml environment (and Globals), parsed once per container."""

from __future__ import annotations

from typing import Literal

from mcp_platform.runtime.settings import TaskSettings, settings_of

DEFAULT_OPENAI_URL = "https://api.openai.com/v1"


class Settings(TaskSettings):
    whisper_engine: Literal["transcribe", "openai", "pocketsphinx"] = "transcribe"
    """`transcribe` or `openai` in AWS; `pocketsphinx` (offline, English) in the local default."""
    whisper_base_url: str = DEFAULT_OPENAI_URL
    """The OpenAI-compatible endpoint (`/audio/transcriptions` is appended) of the `openai` engine."""
    whisper_model: str = "whisper-1"
    whisper_api_key_parameter: str = ""
    """The SSM parameter / secret holding the endpoint's key (read by `mcp_platform.storage.secrets` when needed)."""


settings = settings_of(Settings)
