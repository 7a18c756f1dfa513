"""Lambda entry of the email service (template: `email_service.app.handler`)."""

from email_service.addresses import email_validate
from email_service.dns_check import email_dns_check
from email_service.parsing import email_parse
from email_service.sending import email_quota, email_send, email_suppression_check
from email_service.settings import settings
from email_service.status import email_status
from mcp_platform.runtime.service import ServiceApp

app = ServiceApp(
    "email",
    {
        "email_validate": email_validate,
        "email_dns_check": email_dns_check,
        "email_parse": email_parse,
        "email_send": email_send,
        "email_suppression_check": email_suppression_check,
        "email_quota": email_quota,
        "email_status": email_status,
    },
    settings=settings(),
)
handler = app.lambda_handler
