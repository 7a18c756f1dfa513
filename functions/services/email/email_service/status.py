"""email_status: what the service sends from, its limits and libraries."""

from __future__ import annotations

from importlib.metadata import version
from typing import TYPE_CHECKING

from disposable_email_domains import blocklist

from email_service.settings import settings
from mcp_platform.contracts.email import EmailStatus

if TYPE_CHECKING:
    from mcp_platform.contracts._common import StatusInput
    from mcp_platform.runtime.service import ServiceContext

LIBRARIES = ("email-validator", "dnspython", "disposable-email-domains", "botocore")


def email_status(_arguments: StatusInput, _ctx: ServiceContext) -> EmailStatus:
    config = settings()
    return EmailStatus(
        from_identity=config.email_from or None,
        daily_cap=config.email_daily_cap,
        send_rate_per_second=config.email_rate_per_second,
        suppression_check=config.email_suppression_check,
        dns_nameservers=list(config.dns_nameservers),
        disposable_domains=len(blocklist),
        libraries={name: version(name) for name in LIBRARIES},
    )
