"""validate's settings: its template.yaml environment (and Globals), parsed once per container."""

from __future__ import annotations

from functools import cache
from typing import ClassVar

from mcp_platform.settings import FunctionSettings


class Settings(FunctionSettings):
    OPTIONAL_ENV: ClassVar[frozenset[str]] = frozenset({"vies_url"})

    vies_timeout_s: float = 10.0
    dns_timeout_s: float = 3.0
    """How long validate_email's deliverability check waits for DNS."""
    vies_url: str = ""
    """vies.py still reads VIES_URL and VIES_TIMEOUT_S itself; declared here so the template block is checked."""


@cache
def settings() -> Settings:
    """Parsed on first use; app.py asks at import, so a missing variable fails the cold start."""
    return Settings.from_env()
