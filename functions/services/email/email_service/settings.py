"""email's settings: its template.yaml environment (and Globals), parsed once per container."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import BeforeValidator, Field

from mcp_platform.runtime.settings import StagingSettings, csv_items, settings_of


class Settings(StagingSettings):
    OPTIONAL_ENV: ClassVar[frozenset[str]] = frozenset({"email_suppression_check"})

    email_from: str = ""
    """The verified SES identity to send from; empty: email_send is not configured."""
    email_daily_cap: int = Field(100, ge=0)
    """Messages per account per UTC day."""
    email_rate_per_second: int = Field(1, ge=1)
    """Messages per second, deployment-wide."""
    email_counters_table: str = ""
    """DynamoDB table of the send counters."""
    email_suppression_check: Literal["ses", "off"] = "ses"
    """'off' only in the local default, which has no SES suppression list."""
    dns_nameservers: Annotated[tuple[str, ...], BeforeValidator(csv_items)] = ()
    """host or host:port, comma-separated; empty: the system's."""
    dns_timeout_s: float = Field(3.0, gt=0, le=10)


settings = settings_of(Settings)
