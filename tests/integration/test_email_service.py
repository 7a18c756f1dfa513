"""email_*: DNS from a loopback server with test zones, SES v2 and the counters in moto, Stubber where moto lacks a call."""

from __future__ import annotations

import base64
from datetime import UTC, datetime
from email.message import EmailMessage
from typing import TYPE_CHECKING, Any

import boto3
import pytest
from botocore.stub import Stubber
from moto.core import DEFAULT_ACCOUNT_ID
from moto.ses.models import ses_backends

from email_service import dns_lookup, ses
from email_service.app import app
from email_service.settings import settings
from email_support import LoopbackDns
from staging_support import service_store, staging_bucket  # noqa: F401 - fixture

if TYPE_CHECKING:
    from collections.abc import Iterator

ACCOUNT = "acct_mail"
SENDER = "platform@mail.example"


@pytest.fixture(scope="module")
def dns_server() -> Iterator[LoopbackDns]:
    with LoopbackDns() as server:
        yield server


def _clear_caches() -> None:
    for cached in (settings, dns_lookup.resolver, ses.ses, ses.counters):
        cached.cache_clear()


@pytest.fixture
def mail(staging_bucket: str, dns_server: LoopbackDns, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The email function's environment: loopback DNS, a verified sender in moto SES, the counters table."""
    for name, value in {
        "DNS_NAMESERVERS": dns_server.address,
        "DNS_TIMEOUT_S": "2",
        "EMAIL_FROM": SENDER,
        "EMAIL_DAILY_CAP": "3",
        "EMAIL_RATE_PER_SECOND": "100",
        "EMAIL_COUNTERS_TABLE": "RateLimitTable",
        "EMAIL_SUPPRESSION_CHECK": "ses",
    }.items():
        monkeypatch.setenv(name, value)
    boto3.client("sesv2").create_email_identity(EmailIdentity=SENDER)
    _clear_caches()
    yield
    _clear_caches()


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    reply = app.handle({"tool": tool, "arguments": arguments, "account_id": ACCOUNT, "request_id": "r1"})
    return reply.structured_content


def error(tool: str, code: str, **arguments: Any) -> str:
    out = call(tool, **arguments)
    assert (out.get("is_error"), out.get("code")) == (True, code), out
    return out["error"]


def sent_messages() -> list[Any]:
    return ses_backends[DEFAULT_ACCOUNT_ID]["us-east-1"].sent_messages


@pytest.fixture
def stubbed_ses(mail: None) -> Iterator[Stubber]:
    """The service's SES client behind botocore's Stubber (moto has no GetAccount or suppression list)."""
    client = ses.ses()
    with Stubber(client) as stubber:
        yield stubber
        stubber.assert_no_pending_responses()


pytestmark = pytest.mark.usefixtures("mail")

# ---------------------------------------------------------------- email_validate


def test_validate_reads_mx_and_flags(validate_output) -> None:
    out = validate_output("email_validate", call("email_validate", email="Anna.Smith@GOOD.example"))
    assert (out["valid"], out["domain"], out["mx_present"]) == (True, "good.example", True)
    assert out["mx"] == [{"preference": 10, "host": "mx1.good.example"}, {"preference": 20, "host": "mx2.good.example"}]
    assert (out["disposable"], out["role_account"]) == (False, False)

    role = validate_output("email_validate", call("email_validate", email="postmaster@good.example"))
    assert role["role_account"] is True


def test_validate_implicit_mx_null_mx_and_no_domain(validate_output) -> None:
    assert validate_output("email_validate", call("email_validate", email="a@nomx.example"))["mx_present"] is True
    assert validate_output("email_validate", call("email_validate", email="a@null-mx.example"))["mx_present"] is False
    missing = validate_output("email_validate", call("email_validate", email="a@nowhere.example"))
    assert (missing["valid"], missing["mx_present"], missing["mx"]) == (True, False, [])


def test_validate_disposable_domains_and_subdomains(validate_output) -> None:
    out = validate_output("email_validate", call("email_validate", email="x@mailinator.com", check_mx=False))
    assert (out["disposable"], out.get("mx_present")) == (True, None)
    assert call("email_validate", email="x@eu.mailinator.com", check_mx=False)["disposable"] is True
    assert call("email_validate", email="x@good.example", check_mx=False)["disposable"] is False


def test_invalid_syntax_is_an_answer(validate_output) -> None:
    out = validate_output("email_validate", call("email_validate", email="anna@@good.example"))
    assert out["valid"] is False and out["reason"]


def test_unreachable_dns_is_unknown_not_false(monkeypatch: pytest.MonkeyPatch, validate_output) -> None:
    monkeypatch.setenv("DNS_NAMESERVERS", "127.0.0.1:9")  # nothing listens there
    monkeypatch.setenv("DNS_TIMEOUT_S", "0.5")
    _clear_caches()
    out = validate_output("email_validate", call("email_validate", email="anna@good.example"))
    assert out.get("mx_present") is None and "DNS" in out["dns_note"]
    assert "DNS" in error("email_dns_check", "upstream_unavailable", domain="good.example")


# ---------------------------------------------------------------- email_dns_check


def test_dns_check_of_a_well_set_up_domain(validate_output) -> None:
    out = validate_output(
        "email_dns_check", call("email_dns_check", domain="Good.Example.", dkim_selectors=["selector1"])
    )
    assert out["domain"] == "good.example"
    assert [mx["host"] for mx in out["mx"]] == ["mx1.good.example", "mx2.good.example"]
    spf = out["spf"]
    assert (spf["all"], spf["records_found"], spf["dns_lookups"], spf["errors"]) == ("-", 1, 2, [])
    assert {"qualifier": "+", "kind": "include", "value": "_spf.mail.example"} in spf["terms"]
    dmarc = out["dmarc"]
    assert (dmarc["policy"], dmarc["subdomain_policy"], dmarc["adkim"], dmarc["rua"]) == (
        "reject",
        "quarantine",
        "s",
        ["mailto:dmarc@good.example"],
    )
    assert out["dkim"] == [
        {
            "selector": "selector1",
            "found": True,
            "key_type": "rsa",
            "key_bits": 2048,
            "testing": False,
            "revoked": False,
        }
    ]
    assert (out["grade"], out["score"], out["findings"]) == ("A", 100, [])


def test_dns_check_of_a_weak_domain(validate_output) -> None:
    out = validate_output("email_dns_check", call("email_dns_check", domain="weak.example", dkim_selectors=["s1"]))
    codes = {finding["code"] for finding in out["findings"]}
    assert {"spf_pass_all", "spf_ptr", "dmarc_none", "dmarc_partial", "dmarc_no_reports", "dkim_weak_key"} <= codes
    assert out["dkim"][0]["key_bits"] == 512 and out["dkim"][0]["testing"] is True
    assert out["grade"] == "F"
    assert out["findings"][0]["severity"] == "error"


def test_dns_check_counts_spf_lookups_through_includes(validate_output) -> None:
    out = validate_output("email_dns_check", call("email_dns_check", domain="many.example"))
    assert out["spf"]["dns_lookups"] == 22  # 11 includes, each with an `a`
    assert "spf_too_many_lookups" in {finding["code"] for finding in out["findings"]}
    assert [key["selector"] for key in out["dkim"]][:3] == ["default", "google", "selector1"]


def test_dns_check_of_a_domain_without_mail_records(validate_output) -> None:
    out = validate_output("email_dns_check", call("email_dns_check", domain="nowhere.example"))
    codes = {finding["code"] for finding in out["findings"]}
    assert {"no_mx", "no_spf", "no_dmarc", "dkim_not_found"} <= codes
    twice = validate_output("email_dns_check", call("email_dns_check", domain="twice.example"))
    assert twice["spf"]["records_found"] == 2 and "spf_invalid" in {f["code"] for f in twice["findings"]}


def test_dns_check_refuses_bad_input() -> None:
    assert "domain" in error("email_dns_check", "invalid_arguments", domain="not a domain")
    assert "dkim_selectors" in error(
        "email_dns_check", "invalid_arguments", domain="good.example", dkim_selectors=["a b"]
    )


# ---------------------------------------------------------------- email_parse


def sample_message() -> bytes:
    msg = EmailMessage()
    msg["From"] = "Ünal Example <unal@good.example>"
    msg["To"] = "anna@good.example, Bob <bob@weak.example>"
    msg["Cc"] = "carol@good.example"
    msg["Subject"] = "Quarterly report – draft"
    msg["Date"] = "Tue, 03 Nov 2026 10:15:00 +0100"
    msg["Message-ID"] = "<abc123@good.example>"
    msg["Authentication-Results"] = (
        "mx.good.example; spf=pass (sender ok) smtp.mailfrom=good.example; dkim=fail header.d=good.example header.s=selector1;"
        " dmarc=pass header.from=good.example"
    )
    msg.set_content("Hello Anna,\nthe draft is attached.\n")
    msg.add_alternative("<p>Hello Anna,<br>the draft is attached.</p>", subtype="html")
    msg.add_attachment(b"%PDF-1.4 fake", maintype="application", subtype="pdf", filename="report.pdf")
    return msg.as_bytes()


def test_parse_a_multipart_message(validate_output) -> None:
    out = validate_output("email_parse", call("email_parse", raw=sample_message().decode()))
    assert out["subject"] == "Quarterly report – draft"
    assert out["from"] == [{"name": "Ünal Example", "address": "unal@good.example"}]
    assert [box["address"] for box in out["to"]] == ["anna@good.example", "bob@weak.example"]
    assert out["cc"] == [{"address": "carol@good.example"}]
    assert out["date"] == "2026-11-03T10:15:00+01:00"
    assert out["text"].startswith("Hello Anna,") and "<p>" in out["html"]
    assert out["truncated"] is False
    assert [(r["method"], r["result"]) for r in out["authentication_results"]] == [
        ("spf", "pass"),
        ("dkim", "fail"),
        ("dmarc", "pass"),
    ]
    assert out["authentication_results"][1]["properties"] == {"header.d": "good.example", "header.s": "selector1"}
    (attachment,) = out["attachments"]
    assert (attachment["filename"], attachment["media_type"], attachment["size"]) == (
        "report.pdf",
        "application/pdf",
        13,
    )
    _, staged = service_store().read(ACCOUNT, attachment["file"]["id"], 1000)
    assert staged == b"%PDF-1.4 fake"
    assert {"name": "Message-ID", "value": "<abc123@good.example>"} in out["headers"]


def test_parse_base64_and_staged_messages(validate_output) -> None:
    data = sample_message()
    from_b64 = validate_output("email_parse", call("email_parse", raw=base64.b64encode(data).decode()))
    staged = service_store().put(ACCOUNT, data, "message/rfc822", filename="m.eml")
    from_staging = validate_output("email_parse", call("email_parse", staging_id=staged.id))
    assert from_b64["subject"] == from_staging["subject"] == "Quarterly report – draft"
    other = service_store().put("acct_other", data, "message/rfc822")
    assert error("email_parse", "not_found", staging_id=other.id)


def test_parse_truncates_and_refuses_what_is_not_a_message(validate_output) -> None:
    out = validate_output("email_parse", call("email_parse", raw=sample_message().decode(), max_text_chars=100))
    assert out["truncated"] is False
    long = "From: a@good.example\nSubject: long\n\n" + "x" * 500
    cut = validate_output("email_parse", call("email_parse", raw=long, max_text_chars=100))
    assert (len(cut["text"]), cut["truncated"]) == (100, True)
    assert "raw" in error("email_parse", "invalid_arguments", raw="just some words, no headers")
    assert "exactly one" in error("email_parse", "invalid_arguments")


# ---------------------------------------------------------------- email_send


def test_send_asks_ses_exactly_this(stubbed_ses: Stubber, validate_output) -> None:
    for _ in range(2):
        stubbed_ses.add_client_error("get_suppressed_destination", "NotFoundException", http_status_code=404)
    stubbed_ses.add_response(
        "send_email",
        {"MessageId": "0100-abc"},
        {
            "FromEmailAddress": SENDER,
            "Destination": {"ToAddresses": ["Anna <anna@good.example>"], "CcAddresses": ["carol@good.example"]},
            "ReplyToAddresses": ["help@good.example"],
            "Content": {
                "Simple": {
                    "Subject": {"Data": "Hi", "Charset": "UTF-8"},
                    "Body": {
                        "Text": {"Data": "Hello", "Charset": "UTF-8"},
                        "Html": {"Data": "<b>Hello</b>", "Charset": "UTF-8"},
                    },
                }
            },
        },
    )
    out = call(
        "email_send",
        to=["Anna <anna@good.example>"],
        cc=["carol@good.example"],
        reply_to=["help@good.example"],
        subject="Hi",
        text="Hello",
        html="<b>Hello</b>",
    )
    validate_output("email_send", out)
    assert (out["message_id"], out["from"], out["recipients"], out["sent_today"]) == ("0100-abc", SENDER, 2, 1)
    assert (out["daily_cap"], out["suppression_checked"]) == (3, True)


def test_send_through_moto_ses(monkeypatch: pytest.MonkeyPatch, validate_output) -> None:
    monkeypatch.setenv("EMAIL_SUPPRESSION_CHECK", "off")
    _clear_caches()
    out = validate_output("email_send", call("email_send", to=["anna@good.example"], subject="Hi", text="Hello"))
    assert out["suppression_checked"] is False
    (message,) = sent_messages()
    assert (message.source, message.subject, message.body) == (SENDER, "Hi", "Hello")


def test_suppressed_recipients_are_refused_before_sending(stubbed_ses: Stubber) -> None:
    stubbed_ses.add_client_error("get_suppressed_destination", "NotFoundException", http_status_code=404)
    stubbed_ses.add_response(
        "get_suppressed_destination",
        {
            "SuppressedDestination": {
                "EmailAddress": "bob@weak.example",
                "Reason": "BOUNCE",
                "LastUpdateTime": datetime(2026, 10, 1, tzinfo=UTC),
            }
        },
        {"EmailAddress": "bob@weak.example"},
    )
    out = call("email_send", to=["anna@good.example", "Bob <bob@weak.example>"], subject="Hi", text="Hello")
    assert (out["code"], out["suppressed"]) == ("recipient_suppressed", ["bob@weak.example"])
    assert sent_messages() == []


def test_daily_cap_and_a_refused_send_give_the_count_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EMAIL_SUPPRESSION_CHECK", "off")
    _clear_caches()
    for i in range(3):
        assert call("email_send", to=[f"r{i}@good.example"], subject="Hi", text="Hello")["sent_today"] == i + 1
    out = call("email_send", to=["r9@good.example"], subject="Hi", text="Hello")
    assert (out["code"], out["retry_after_s"] > 0) == ("rate_limited", True)
    assert "daily cap of 3" in out["error"]
    assert len(sent_messages()) == 3

    # A send SES refuses does not use the cap.
    monkeypatch.setenv("EMAIL_DAILY_CAP", "10")
    monkeypatch.setenv("EMAIL_FROM", "unverified@elsewhere.example")
    _clear_caches()
    refused = call("email_send", to=["r9@good.example"], subject="Hi", text="Hello")
    assert (refused["code"], "SendEmail" in refused["error"]) == ("upstream_unavailable", True)
    monkeypatch.setenv("EMAIL_FROM", SENDER)
    _clear_caches()
    assert call("email_send", to=["r9@good.example"], subject="Hi", text="Hello")["sent_today"] == 4


def test_deployment_rate_per_second(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EMAIL_SUPPRESSION_CHECK", "off")
    monkeypatch.setenv("EMAIL_RATE_PER_SECOND", "1")
    _clear_caches()
    counters = ses.counters()
    monkeypatch.setattr(counters, "clock", lambda: 1_800_000_000.5)
    assert "sent_today" in call("email_send", to=["a@good.example"], subject="Hi", text="Hello")
    out = call("email_send", to=["b@good.example"], subject="Hi", text="Hello")
    assert (out["code"], out["retry_after_s"]) == ("rate_limited", 1)
    assert call("email_quota")["sent_today"] == 1  # the refused one was given back


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({"to": ["anna@good.example"], "subject": "Hi\r\nBcc: evil@weak.example", "text": "x"}, "subject"),
        ({"to": ["anna@good.example\nBcc: evil@weak.example"], "subject": "Hi", "text": "x"}, "to"),
        ({"to": ["anna@good.example, evil@weak.example"], "subject": "Hi", "text": "x"}, "to"),
        ({"to": ["not an address"], "subject": "Hi", "text": "x"}, "to"),
        ({"to": ["anna@good.example"], "reply_to": ["a@b"], "subject": "Hi", "text": "x"}, "reply_to"),
        ({"to": ["anna@good.example"], "subject": "Hi"}, "text, html"),
        (
            {
                "to": [f"r{i}@good.example" for i in range(30)],
                "cc": [f"c{i}@good.example" for i in range(30)],
                "subject": "Hi",
                "text": "x",
            },
            "50",
        ),
    ],
)
def test_send_refuses_header_injection_and_bad_recipients(arguments: dict[str, Any], field: str) -> None:
    assert field in error("email_send", "invalid_arguments", **arguments)
    assert sent_messages() == []


def test_send_without_a_sender(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EMAIL_FROM", "")
    _clear_caches()
    assert "EmailFromAddress" in error(
        "email_send", "provider_not_configured", to=["a@good.example"], subject="x", text="y"
    )


# ---------------------------------------------------------------- suppression, quota, status


def test_suppression_check(stubbed_ses: Stubber, validate_output) -> None:
    stubbed_ses.add_client_error("get_suppressed_destination", "NotFoundException", http_status_code=404)
    stubbed_ses.add_response(
        "get_suppressed_destination",
        {
            "SuppressedDestination": {
                "EmailAddress": "b@weak.example",
                "Reason": "COMPLAINT",
                "LastUpdateTime": datetime(2026, 9, 2, tzinfo=UTC),
            }
        },
    )
    stubbed_ses.add_client_error("get_suppressed_destination", "TooManyRequestsException", http_status_code=429)
    assert validate_output("email_suppression_check", call("email_suppression_check", email="a@good.example")) == {
        "email": "a@good.example",
        "suppressed": False,
    }
    out = validate_output("email_suppression_check", call("email_suppression_check", email="Bee <b@weak.example>"))
    assert (out["email"], out["suppressed"], out["reason"], out["last_update"]) == (
        "b@weak.example",
        True,
        "COMPLAINT",
        "2026-09-02T00:00:00+00:00",
    )
    assert "TooManyRequests" in error("email_suppression_check", "upstream_unavailable", email="c@good.example")


def test_suppression_check_off_in_the_local_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EMAIL_SUPPRESSION_CHECK", "off")
    _clear_caches()
    assert "suppression list" in error("email_suppression_check", "provider_not_configured", email="a@good.example")


def test_quota_with_and_without_ses_account_data(stubbed_ses: Stubber, validate_output) -> None:
    stubbed_ses.add_response(
        "get_account",
        {
            "SendQuota": {"Max24HourSend": 50000.0, "MaxSendRate": 14.0, "SentLast24Hours": 12.0},
            "SendingEnabled": True,
            "ProductionAccessEnabled": False,
        },
    )
    out = validate_output("email_quota", call("email_quota"))
    assert (out["daily_cap"], out["sent_today"], out["remaining_today"]) == (3, 0, 3)
    assert out["ses"] == {
        "max_24_hour_send": 50000.0,
        "max_send_rate": 14.0,
        "sent_last_24_hours": 12.0,
        "sending_enabled": True,
        "production_access": False,
    }
    assert out["resets_at"].endswith("T00:00:00Z")
    stubbed_ses.add_client_error("get_account", "AccessDeniedException", http_status_code=403)
    degraded = validate_output("email_quota", call("email_quota"))
    assert degraded.get("ses") is None and "GetAccount" in degraded["ses_note"]


def test_status(validate_output) -> None:
    out = validate_output("email_status", call("email_status"))
    assert (out["ok"], out["from_identity"], out["daily_cap"], out["suppression_check"]) == (True, SENDER, 3, "ses")
    assert out["disposable_domains"] > 1000
