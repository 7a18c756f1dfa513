"""email through the official mcp client against the local default: loopback DNS zones, moto SES."""

from __future__ import annotations

import base64
from email.message import EmailMessage

import boto3
import httpx
import pytest
from mcp import Client
from tool_calls import Tools

pytestmark = pytest.mark.e2e


def _ses_sent(local_server) -> float:
    ses = boto3.client("ses", endpoint_url=local_server.aws_endpoint, region_name="us-east-1")
    return ses.get_send_quota()["SentLast24Hours"]


def _message() -> str:
    msg = EmailMessage()
    msg["From"] = "Anna <anna@good.example>"
    msg["To"] = "bob@weak.example"
    msg["Subject"] = "Invoice"
    msg.set_content("See the attachment.")
    msg.add_attachment(b"col1,col2\n1,2\n", maintype="text", subtype="csv", filename="invoice.csv")
    return base64.b64encode(msg.as_bytes()).decode()


@pytest.mark.anyio
async def test_checks_parse_and_send_are_billed_and_refusals_are_free(local_server) -> None:
    async with Client(local_server.url_with_key) as client:
        tools = await Tools.listed(client)
        valid = await tools.charged("email_validate", {"email": "anna@good.example"}, 1)
        assert (valid["valid"], valid["mx_present"]) == (True, True)

        dns = await tools.charged("email_dns_check", {"domain": "good.example", "dkim_selectors": ["selector1"]}, 1)
        assert (dns["grade"], dns["spf"]["all"], dns["dmarc"]["policy"]) == ("A", "-", "reject")

        parsed = await tools.charged("email_parse", {"raw": _message()}, 1)
        (attachment,) = parsed["attachments"]
        assert httpx.get(attachment["file"]["url"]).content == b"col1,col2\n1,2\n"

        sent_before = _ses_sent(local_server)
        sent = await tools.charged("email_send", {"to": ["bob@weak.example"], "subject": "Hello", "text": "Hi Bob"}, 2)
        assert sent["sent_today"] >= 1
        assert _ses_sent(local_server) == sent_before + 1

        injected = {"to": ["bob@weak.example"], "subject": "Hello\r\nBcc: eve@weak.example", "text": "x"}
        refused = await tools.refused("email_send", injected, "invalid_arguments")
        assert "subject" in refused["error"]
        assert _ses_sent(local_server) == sent_before + 1

        await tools.refused("email_suppression_check", {"email": "bob@weak.example"}, "provider_not_configured")
        quota = await tools.charged("email_quota", {}, 1)
        assert quota["sent_today"] == sent["sent_today"] and quota["daily_cap"] == 100
        status = await tools.free("email_status", {})
        assert (status["from_identity"], status["suppression_check"]) == ("platform@mcp.localhost", "off")
