"""compound's settings: its template.yaml environment (and Globals), parsed once per container."""

from __future__ import annotations

from functools import cache

from mcp_platform.settings import BackendSettings


class Settings(BackendSettings):
    pubchem_base_url: str = ""


@cache
def settings() -> Settings:
    """Parsed on first use; app.py asks at import, so a missing variable fails the cold start."""
    return Settings.from_env()
