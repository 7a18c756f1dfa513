"""email_send, email_suppression_check and email_quota over SES v2 and the send counters.

Order of email_send: refuse what is not allowed (no sender configured, suppressed
recipients, the daily cap, the deployment's rate) before SES is asked to send, and
give the counted send back if SES refuses it, so a failed send neither costs a
credit (the router refunds error results) nor uses the cap.
"""

from __future__ import annotations

from datetime import UTC, datetime
from email.utils import parseaddr
from typing import TYPE_CHECKING

from email_service import ses
from email_service.counters import day_window, second_window
from email_service.settings import settings
from mcp_platform.contracts.email import QuotaOutput, SendOutput, SesQuota, SuppressionOutput
from mcp_platform.protocol.errors import ErrorCode, ToolError

if TYPE_CHECKING:
    from mcp_platform.contracts._common import StatusInput
    from mcp_platform.contracts.email import SendInput, SuppressionInput
    from mcp_platform.runtime.service import ServiceContext

NOT_CONFIGURED = "provider_not_configured"
SUPPRESSED = "recipient_suppressed"


def email_send(arguments: SendInput, ctx: ServiceContext) -> SendOutput:
    config = settings()
    if not config.email_from:
        raise ToolError(
            "email_send: no sender is configured (template parameter EmailFromAddress, env EMAIL_FROM, "
            "an SES-verified identity)",
            NOT_CONFIGURED,
        )
    recipients = [parseaddr(item)[1] for item in [*arguments.to, *arguments.cc]]
    checked = config.email_suppression_check == "ses"
    if checked and (suppressed := [address for address in recipients if ses.suppression(address)]):
        raise ToolError(
            f"to/cc: {', '.join(suppressed)} on the SES suppression list (an earlier bounce or complaint); "
            "nothing was sent",
            SUPPRESSED,
            suppressed=suppressed,
        )
    counters = ses.counters()
    now = counters.clock()
    day = day_window(ctx.account_id, now)
    sent_today = counters.take(day, config.email_daily_cap)
    if sent_today is None:
        raise ToolError(
            f"email_send: your daily cap of {config.email_daily_cap} messages is reached;"
            f" it resets at {_iso(day.resets_at)}",
            ErrorCode.RATE_LIMITED,
            retry_after_s=max(1, day.resets_at - int(now)),
        )
    if counters.take(second_window(now), config.email_rate_per_second) is None:
        counters.give_back(day)
        raise ToolError(
            f"email_send: the deployment sends at most {config.email_rate_per_second} messages a second; retry shortly",
            ErrorCode.RATE_LIMITED,
            retry_after_s=1,
        )
    try:
        message_id = _send(config.email_from, arguments)
    except ToolError:
        counters.give_back(day)
        raise
    return SendOutput(
        message_id=message_id,
        from_=config.email_from,
        recipients=len(recipients),
        sent_today=sent_today,
        daily_cap=config.email_daily_cap,
        suppression_checked=checked,
    )


def _send(sender: str, arguments: SendInput) -> str:
    body = {}
    if arguments.text:
        body["Text"] = {"Data": arguments.text, "Charset": "UTF-8"}
    if arguments.html:
        body["Html"] = {"Data": arguments.html, "Charset": "UTF-8"}
    destination = {"ToAddresses": arguments.to, **({"CcAddresses": arguments.cc} if arguments.cc else {})}
    try:
        response = ses.ses().send_email(
            FromEmailAddress=sender,
            Destination=destination,
            ReplyToAddresses=arguments.reply_to,
            Content={"Simple": {"Subject": {"Data": arguments.subject, "Charset": "UTF-8"}, "Body": body}},
        )
    except ses.AWS_ERRORS as exc:
        raise ses.unavailable("SendEmail", exc) from None
    return str(response["MessageId"])


def email_suppression_check(arguments: SuppressionInput, _ctx: ServiceContext) -> SuppressionOutput:
    if settings().email_suppression_check == "off":
        raise ToolError(
            "email_suppression_check: this deployment has no SES suppression list to read "
            "(EMAIL_SUPPRESSION_CHECK=off, the local default)",
            NOT_CONFIGURED,
        )
    found = ses.suppression(arguments.email)
    if found is None:
        return SuppressionOutput(email=arguments.email, suppressed=False)
    reason, updated = found
    return SuppressionOutput(email=arguments.email, suppressed=True, reason=reason, last_update=updated)  # type: ignore[arg-type]


def email_quota(_arguments: StatusInput, ctx: ServiceContext) -> QuotaOutput:
    config = settings()
    counters = ses.counters()
    day = day_window(ctx.account_id, counters.clock())
    sent = counters.count(day)
    quota, note = _ses_quota()
    return QuotaOutput(
        daily_cap=config.email_daily_cap,
        sent_today=sent,
        remaining_today=max(0, config.email_daily_cap - sent),
        resets_at=_iso(day.resets_at),
        ses=quota,
        ses_note=note,
    )


def _ses_quota() -> tuple[SesQuota | None, str | None]:
    try:
        account = ses.ses().get_account()
    except ses.AWS_ERRORS as exc:
        return None, ses.unavailable("GetAccount", exc).message.replace("; nothing was sent", "")
    send = account.get("SendQuota", {})
    return SesQuota(
        max_24_hour_send=send.get("Max24HourSend", 0.0),
        max_send_rate=send.get("MaxSendRate", 0.0),
        sent_last_24_hours=send.get("SentLast24Hours", 0.0),
        sending_enabled=account.get("SendingEnabled"),
        production_access=account.get("ProductionAccessEnabled"),
    ), None


def _iso(epoch: int) -> str:
    return datetime.fromtimestamp(epoch, UTC).isoformat().replace("+00:00", "Z")
