"""Amazon SES v2 and the send counters, built once per container."""

from __future__ import annotations

from functools import cache
from typing import Any

from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from email_service.counters import SendCounters
from email_service.settings import settings
from mcp_platform.protocol.errors import ErrorCode, ToolError
from mcp_platform.storage.aws import client, configured_client, one_attempt

SES_CONFIG = Config(connect_timeout=3, read_timeout=8).merge(one_attempt())
"""One attempt: SendEmail has no idempotency token, so a retry whose first answer was lost is a second email.
The client's reads (suppression list, account) fail as `upstream_unavailable` (refunded) instead of retrying."""
AWS_ERRORS = (BotoCoreError, ClientError, NotImplementedError)
"""What an SES call may raise; NotImplementedError is moto's answer for calls it lacks."""


@cache
def ses() -> Any:
    return configured_client("sesv2", SES_CONFIG)


@cache
def counters() -> SendCounters:
    table = settings().email_counters_table
    if not table:
        raise ToolError("email: EMAIL_COUNTERS_TABLE is not set", "provider_not_configured")
    return SendCounters(client("dynamodb", once=True), table)  # an `ADD` sent twice counts twice


def unavailable(action: str, exc: Exception) -> ToolError:
    """The error result for an SES call that failed; names the call, never the arguments."""
    code = exc.response["Error"].get("Code", "error") if isinstance(exc, ClientError) else type(exc).__name__
    return ToolError(f"Amazon SES: {action} failed ({code}); nothing was sent", ErrorCode.UPSTREAM_UNAVAILABLE)


def suppression(address: str) -> tuple[str, str | None] | None:
    """(reason, last update ISO) when SES suppresses `address`; None when it does not."""
    try:
        found = ses().get_suppressed_destination(EmailAddress=address)["SuppressedDestination"]
    except ClientError as exc:
        if exc.response["Error"].get("Code") == "NotFoundException":
            return None
        raise unavailable("GetSuppressedDestination", exc) from None
    except AWS_ERRORS as exc:
        raise unavailable("GetSuppressedDestination", exc) from None
    updated = found.get("LastUpdateTime")
    return found["Reason"], updated.isoformat() if updated is not None else None
