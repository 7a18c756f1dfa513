"""validate's settings: its template.yaml environment (and Globals), parsed once per container."""

from __future__ import annotations

from mcp_platform.runtime.settings import FunctionSettings, settings_of


class Settings(FunctionSettings):
    vies_base_url: str = ""
    """The origin of EU VIES (a mirror may add a path prefix); empty: https://ec.europa.eu."""
    vies_timeout_s: float = 10.0
    dns_timeout_s: float = 3.0
    """How long validate_email's deliverability check waits for DNS."""


settings = settings_of(Settings)
