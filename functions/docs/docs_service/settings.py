"""docs's settings: its template.yaml environment (and Globals), parsed once per container."""

from __future__ import annotations

from functools import cache
from typing import ClassVar

from mcp_platform.settings import TaskSettings, WebSettings

DEFAULT_MAX_BYTES = 20 * 1024 * 1024


class Settings(WebSettings, TaskSettings):
    OPTIONAL_ENV: ClassVar[frozenset[str]] = frozenset({"docs_max_bytes"})

    docs_max_bytes: int = DEFAULT_MAX_BYTES
    """Largest document read, from a URL or the staging store."""


@cache
def settings() -> Settings:
    """Parsed on first use; app.py asks at import, so a missing variable fails the cold start."""
    return Settings.from_env()
