"""The email function's settings, parsed once per container from its template environment."""

from __future__ import annotations

import os
from functools import cache
from typing import Literal

from pydantic import BaseModel, Field


class EmailSettings(BaseModel):
    from_identity: str | None = Field(description="EMAIL_FROM: the verified SES identity to send from.")
    daily_cap: int = Field(ge=0, description="EMAIL_DAILY_CAP: messages per account per UTC day.")
    rate_per_second: int = Field(ge=1, description="EMAIL_RATE_PER_SECOND: messages per second, deployment-wide.")
    counters_table: str | None = Field(description="EMAIL_COUNTERS_TABLE: DynamoDB table of the send counters.")
    suppression_check: Literal["ses", "off"] = Field(
        description="EMAIL_SUPPRESSION_CHECK: 'off' only in the local default, which has no SES suppression list."
    )
    dns_nameservers: list[str] = Field(
        description="DNS_NAMESERVERS: host or host:port, comma-separated; empty: the system's."
    )
    dns_timeout_s: float = Field(gt=0, le=10)

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> EmailSettings:
        env = dict(os.environ) if env is None else env
        return cls(
            from_identity=env.get("EMAIL_FROM") or None,
            daily_cap=int(env.get("EMAIL_DAILY_CAP", "100")),
            rate_per_second=int(env.get("EMAIL_RATE_PER_SECOND", "1")),
            counters_table=env.get("EMAIL_COUNTERS_TABLE") or None,
            suppression_check=env.get("EMAIL_SUPPRESSION_CHECK", "ses"),  # type: ignore[arg-type]
            dns_nameservers=[item.strip() for item in env.get("DNS_NAMESERVERS", "").split(",") if item.strip()],
            dns_timeout_s=float(env.get("DNS_TIMEOUT_S", "3")),
        )


@cache
def settings() -> EmailSettings:
    return EmailSettings.from_env()
