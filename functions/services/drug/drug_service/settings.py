"""drug's settings: its template.yaml environment (and Globals), parsed once per container."""

from __future__ import annotations

from mcp_platform.runtime.settings import BackendSettings, settings_of


class Settings(BackendSettings):
    rxnav_base_url: str = ""
    openfda_base_url: str = ""
    dailymed_base_url: str = ""
    openfda_api_key_parameter: str = ""
    """Where an optional openFDA key is (SSM or 'secretsmanager:<id>'); read through `mcp_platform.storage.secrets`."""


settings = settings_of(Settings)
