"""Findings and a grade for a domain's mail DNS: what a receiver would hold against it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcp_platform.contracts.email import Finding

if TYPE_CHECKING:
    from mcp_platform.contracts.email import DkimKey, Dmarc, MxRecord, Spf

# Points off the score per finding code: errors make mail fail or be spoofable, warnings weaken it.
WEIGHTS = {
    "no_mx": 30,
    "no_spf": 25,
    "spf_invalid": 25,
    "spf_pass_all": 30,
    "spf_neutral_all": 10,
    "spf_no_all": 10,
    "spf_too_many_lookups": 20,
    "spf_ptr": 5,
    "no_dmarc": 25,
    "dmarc_invalid": 25,
    "dmarc_none": 15,
    "dmarc_partial": 5,
    "dmarc_no_reports": 3,
    "dkim_not_found": 10,
    "dkim_weak_key": 20,
    "dkim_short_key": 5,
    "dkim_testing": 2,
}
GRADES = ((90, "A"), (80, "B"), (65, "C"), (50, "D"))


def findings(mx: list[MxRecord], spf: Spf, dmarc: Dmarc, dkim: list[DkimKey]) -> list[Finding]:
    """Every problem found, most severe first."""
    found = [*_mx(mx), *_spf(spf), *_dmarc(dmarc), *_dkim(dkim)]
    order = {"error": 0, "warning": 1, "info": 2}
    return sorted(found, key=lambda finding: order[finding.severity])


def grade(found: list[Finding]) -> tuple[int, str]:
    """(score 0-100, letter A-F)."""
    score = max(0, 100 - sum(WEIGHTS.get(finding.code, 0) for finding in found))
    return score, next((letter for floor, letter in GRADES if score >= floor), "F")


def _error(code: str, message: str) -> Finding:
    return Finding(severity="error", code=code, message=message)


def _warning(code: str, message: str) -> Finding:
    return Finding(severity="warning", code=code, message=message)


def _info(code: str, message: str) -> Finding:
    return Finding(severity="info", code=code, message=message)


def _mx(mx: list[MxRecord]) -> list[Finding]:
    if not mx:
        return [_error("no_mx", "No MX records: the domain receives no mail.")]
    if len(mx) == 1 and mx[0].host in {"", "."}:
        return [_info("null_mx", "Null MX (RFC 7505): the domain accepts no mail.")]
    return []


def _spf(spf: Spf) -> list[Finding]:
    if spf.records_found == 0:
        return [_error("no_spf", "No SPF record: anyone can claim to send as it.")]
    out = [_error("spf_invalid", f"SPF: {error}") for error in spf.errors]
    if spf.dns_lookups > 10:
        out = [finding for finding in out if "DNS lookups" not in finding.message]
        out.append(_error("spf_too_many_lookups", f"SPF needs {spf.dns_lookups} lookups (max 10)."))
    if spf.all == "+":
        out.append(_error("spf_pass_all", "SPF ends in +all: every server may send."))
    elif spf.all == "?":
        out.append(_warning("spf_neutral_all", "SPF ends in ?all: no verdict."))
    elif spf.all is None and spf.record and not any(term.kind == "redirect" for term in spf.terms):
        out.append(_warning("spf_no_all", "SPF has no all mechanism (neutral)."))
    elif spf.all == "~":
        out.append(_info("spf_softfail", "SPF ends in ~all (softfail), not -all."))
    if any(term.kind == "ptr" for term in spf.terms):
        out.append(_warning("spf_ptr", "SPF uses ptr, which RFC 7208 discourages."))
    return out


def _dmarc(dmarc: Dmarc) -> list[Finding]:
    if dmarc.records_found == 0:
        return [_error("no_dmarc", "No DMARC record at _dmarc: spoofing goes unchecked.")]
    out = [_error("dmarc_invalid", f"DMARC: {error}") for error in dmarc.errors]
    if dmarc.policy == "none":
        out.append(_warning("dmarc_none", "DMARC p=none only monitors."))
    if dmarc.percent is not None and dmarc.percent < 100:
        out.append(_warning("dmarc_partial", f"DMARC applies to {dmarc.percent}%."))
    if not dmarc.rua:
        out.append(_info("dmarc_no_reports", "DMARC asks for no aggregate reports."))
    return out


def _dkim(dkim: list[DkimKey]) -> list[Finding]:
    present = [key for key in dkim if key.found]
    if not present:
        tried = ", ".join(key.selector for key in dkim)
        return [_warning("dkim_not_found", f"No DKIM key at the selectors tried ({tried}).")]
    out: list[Finding] = []
    for key in present:
        if key.key_bits is not None and key.key_bits < 1024:
            out.append(_error("dkim_weak_key", f"DKIM {key.selector}: {key.key_bits}-bit key."))
        elif key.key_bits == 1024:
            out.append(_warning("dkim_short_key", f"DKIM {key.selector}: 1024-bit key; use 2048."))
        if key.testing:
            out.append(_info("dkim_testing", f"DKIM {key.selector} is in test mode (t=y)."))
    return out
