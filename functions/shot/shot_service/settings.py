"""shot's settings: its template.yaml environment (and Globals), parsed once per container."""

from __future__ import annotations

from functools import cache

from mcp_platform.settings import TaskSettings


class Settings(TaskSettings):
    shot_browser_path: str = ""
    """The Chromium to launch; empty: Playwright's own build (the container image). Locally Debian's chromium."""


@cache
def settings() -> Settings:
    """Parsed on first use; app.py asks at import, so a missing variable fails the cold start."""
    return Settings.from_env()
