"""drug's settings: its template.yaml environment (and Globals), parsed once per container."""

from __future__ import annotations

from functools import cache

from mcp_platform.settings import BackendSettings


class Settings(BackendSettings):
    rxnav_base_url: str = ""
    openfda_base_url: str = ""
    dailymed_base_url: str = ""
    openfda_api_key_parameter: str = ""
    """Where an optional openFDA key is (SSM or 'secretsmanager:<id>'); read through `mcp_platform.secrets`."""


@cache
def settings() -> Settings:
    """Parsed on first use; app.py asks at import, so a missing variable fails the cold start."""
    return Settings.from_env()
