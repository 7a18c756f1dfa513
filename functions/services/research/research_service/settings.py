"""research's settings: its template.yaml environment (and Globals), parsed once per container."""

from __future__ import annotations

from mcp_platform.runtime.settings import ProviderSettings, TaskSettings, WebSettings, settings_of


class Settings(WebSettings, ProviderSettings, TaskSettings):
    pass


settings = settings_of(Settings)
