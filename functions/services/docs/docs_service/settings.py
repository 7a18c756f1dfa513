"""docs's settings: its template.yaml environment (and Globals), parsed once per container."""

from __future__ import annotations

from typing import ClassVar

from mcp_platform.runtime.settings import TaskSettings, WebSettings, settings_of

DEFAULT_MAX_BYTES = 20 * 1024 * 1024


class Settings(WebSettings, TaskSettings):
    OPTIONAL_ENV: ClassVar[frozenset[str]] = frozenset({"docs_max_bytes"})

    docs_max_bytes: int = DEFAULT_MAX_BYTES
    """Largest document read, from a URL or the staging store."""


settings = settings_of(Settings)
