"""email_dns_check: a domain's MX, SPF, DMARC and DKIM records, parsed and graded."""

from __future__ import annotations

from typing import TYPE_CHECKING

from email_service import dns_lookup, grading, records
from mcp_platform.contracts.email import DnsCheckOutput, MxRecord

if TYPE_CHECKING:
    from mcp_platform.contracts.email import DnsCheckInput
    from mcp_platform.runtime.service import ServiceContext

COMMON_SELECTORS = ("default", "google", "selector1", "selector2", "k1", "s1", "s2", "dkim", "mail")
"""Tried when the caller names none: Google Workspace, Microsoft 365, Mailchimp and common defaults."""


def email_dns_check(arguments: DnsCheckInput, _ctx: ServiceContext) -> DnsCheckOutput:
    domain = arguments.domain
    mx = [MxRecord(preference=pref, host=host) for pref, host in dns_lookup.mx(domain)]
    spf = records.spf_record(domain, dns_lookup.txt)
    dmarc = records.dmarc_record(dns_lookup.txt(f"_dmarc.{domain}"))
    selectors = arguments.dkim_selectors or COMMON_SELECTORS
    dkim = [records.dkim_key(selector, dns_lookup.txt(f"{selector}._domainkey.{domain}")) for selector in selectors]
    found = grading.findings(mx, spf, dmarc, dkim)
    score, letter = grading.grade(found)
    return DnsCheckOutput(
        domain=domain, mx=mx, spf=spf, dmarc=dmarc, dkim=dkim, findings=found, score=score, grade=letter
    )
