"""Lambda entry of the email service (template: `email_service.app.handler`)."""

from email_service.parsing import email_parse
from email_service.settings import settings
from email_service.status import email_status
from mcp_platform.runtime.service import ServiceApp, lazy

app = ServiceApp(
    "email",
    {
        "email_validate": lazy("email_service.addresses:email_validate"),
        "email_dns_check": lazy("email_service.dns_check:email_dns_check"),
        "email_parse": email_parse,
        "email_send": lazy("email_service.sending:email_send"),
        "email_suppression_check": lazy("email_service.sending:email_suppression_check"),
        "email_quota": lazy("email_service.sending:email_quota"),
        "email_status": email_status,
    },
    settings=settings(),
)
handler = app.lambda_handler
