"""supplement's settings: its template.yaml environment (and Globals), parsed once per container."""

from __future__ import annotations

from mcp_platform.runtime.settings import BackendSettings, settings_of


class Settings(BackendSettings):
    dsld_base_url: str = ""
    ods_base_url: str = ""


settings = settings_of(Settings)
