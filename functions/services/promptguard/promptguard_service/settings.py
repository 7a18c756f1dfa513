"""promptguard's settings: its template.yaml environment (and Globals), parsed once per container."""

from __future__ import annotations

from typing import ClassVar

from mcp_platform.runtime.settings import FunctionSettings, settings_of


class Settings(FunctionSettings):
    OPTIONAL_ENV: ClassVar[frozenset[str]] = frozenset({"promptguard_canary_secret"})

    promptguard_canary_secret_parameter: str = ""
    """Where the canary HMAC secret is (SSM or 'secretsmanager:<id>'); read through `mcp_platform.storage.secrets`."""
    promptguard_canary_secret: str = ""
    """The secret itself: the local default only (a fresh one per run), never set in AWS."""
    promptguard_guardrail_id: str = ""
    """A Bedrock guardrail for the second opinion; empty: the offline layers only."""
    promptguard_guardrail_version: str = ""
    """Empty: DRAFT."""


settings = settings_of(Settings)
