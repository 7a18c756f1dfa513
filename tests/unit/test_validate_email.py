"""validate_email deliverability: recorded DNS answers; no network means 'unknown', never 'undeliverable'."""

from __future__ import annotations

from typing import Any

import dns.exception
import pytest

from validate_service import email_address
from validate_service.app import app
from validate_support import RecordedResolver


def deliverability(email: str) -> dict[str, Any]:
    reply = app.handle(
        {
            "tool": "validate_email",
            "arguments": {"email": email, "check_deliverability": True},
            "account_id": "acct",
            "request_id": "r1",
        }
    )
    return reply.structured_content


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> RecordedResolver:
    resolver = RecordedResolver()
    monkeypatch.setattr(email_address, "dns_resolver", lambda: resolver)
    return resolver


def test_domain_with_mx_is_deliverable(recorded: RecordedResolver, validate_output) -> None:
    out = validate_output("validate_email", deliverability("someone@gmail.com"))
    assert (out["valid"], out["deliverability"]) == (True, "deliverable")
    assert out["mx"][0] == {"preference": 5, "host": "gmail-smtp-in.l.google.com"}
    assert [mx["preference"] for mx in out["mx"]] == [5, 10, 20]


def test_a_record_fallback_is_deliverable(recorded: RecordedResolver) -> None:
    out = deliverability("someone@a-only.example.net")
    assert out["deliverability"] == "deliverable"
    assert out["mx"] == [{"preference": 0, "host": "a-only.example.net"}]


@pytest.mark.parametrize(
    ("email", "reason"),
    [("x@no-such-domain-3f9a1c.com", "does not exist"), ("x@example.com", "does not accept email")],
)
def test_nxdomain_and_null_mx_are_undeliverable(
    recorded: RecordedResolver, validate_output, email: str, reason: str
) -> None:
    out = validate_output("validate_email", deliverability(email))
    assert (out["valid"], out["deliverability"]) == (False, "undeliverable")
    assert reason in out["reason"]
    assert ". NS" in recorded.asked  # the verdict was trusted only after the resolver proved it works


def test_resolver_denying_everything_gives_unknown(monkeypatch: pytest.MonkeyPatch, validate_output) -> None:
    liar = RecordedResolver({". NS": "NXDOMAIN", "gmail.com MX": "NXDOMAIN"})
    monkeypatch.setattr(email_address, "dns_resolver", lambda: liar)
    out = validate_output("validate_email", deliverability("someone@gmail.com"))
    assert (out["valid"], out["deliverability"]) == (True, "unknown")
    assert "root zone" in out["deliverability_note"]


def test_timeout_gives_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    class Slow:
        def resolve(self, qname: str, rdtype: str) -> None:
            raise dns.exception.Timeout

    monkeypatch.setattr(email_address, "dns_resolver", Slow)
    out = deliverability("someone@gmail.com")
    assert (out["valid"], out["deliverability"], out["deliverability_note"]) == (
        True,
        "unknown",
        "DNS lookup timed out",
    )


def test_no_network_gives_unknown_with_the_real_resolver(validate_output) -> None:
    """pytest-socket blocks every non-loopback socket: the production resolver cannot reach DNS."""
    email_address.dns_resolver.cache_clear()
    out = validate_output("validate_email", deliverability("someone@gmail.com"))
    assert (out["valid"], out["deliverability"]) == (True, "unknown")
    assert "reason" not in out


def test_no_resolver_configuration_gives_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> None:
        raise dns.resolver.NoResolverConfiguration

    monkeypatch.setattr(email_address, "dns_resolver", missing)
    out = deliverability("someone@gmail.com")
    assert (out["deliverability"], out["deliverability_note"]) == (
        "unknown",
        "no DNS resolver (NoResolverConfiguration)",
    )


def test_syntax_errors_skip_dns(recorded: RecordedResolver) -> None:
    out = deliverability("not an address")
    assert (out["valid"], out["deliverability"]) == (False, "not_checked")
    assert recorded.asked == []
