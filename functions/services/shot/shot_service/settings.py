"""shot's settings: its template.yaml environment (and Globals), parsed once per container."""

from __future__ import annotations

from mcp_platform.runtime.settings import TaskSettings, settings_of


class Settings(TaskSettings):
    shot_browser_path: str = ""
    """The Chromium to launch; empty: Playwright's own build (the container image). Locally Debian's chromium."""


settings = settings_of(Settings)
