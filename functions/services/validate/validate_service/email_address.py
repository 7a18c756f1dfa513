"""Email addresses through email-validator; deliverability through DNS (dnspython).

The DNS resolver is looked up through `dns_resolver()` so tests replace it with
recorded answers. Any failure to *get* an answer (no network, no resolver
configured, a blocked socket, a timeout) means deliverability is unknown:
email-validator would report an unexpected exception as "undeliverable", so
`AnswerOrUnknown` turns those into dnspython's `NoNameservers`, which it treats
as unknown. A resolver that denies everything (sandboxes answer NXDOMAIN for every
name) is caught by asking it for the root zone before trusting an "undeliverable".
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any, Protocol

import dns.exception
import dns.resolver
from email_validator import EmailNotValidError, EmailUndeliverableError
from email_validator import validate_email as check_syntax
from email_validator.deliverability import validate_email_deliverability

from mcp_platform.contracts.validate import EmailInput, EmailOutput, MxHost
from validate_service.settings import settings

if TYPE_CHECKING:
    from mcp_platform.runtime.service import ServiceContext

_ANSWERS = (dns.resolver.NXDOMAIN, dns.resolver.NoAnswer, dns.resolver.NoNameservers, dns.exception.Timeout)


class Resolver(Protocol):
    def resolve(self, qname: str, rdtype: str) -> Any: ...


class AnswerOrUnknown:
    """Passes DNS answers and DNS verdicts through; anything else becomes `NoNameservers`."""

    def __init__(self, inner: Resolver) -> None:
        self._inner = inner
        self.failure: str | None = None

    def resolve(self, qname: str, rdtype: str) -> Any:
        try:
            return self._inner.resolve(qname, rdtype)
        except dns.exception.Timeout:
            self.failure = "DNS lookup timed out"
            raise
        except _ANSWERS:
            raise
        except Exception as exc:  # no network, blocked socket, broken resolver: not the address's fault
            self.failure = f"DNS unreachable ({type(exc).__name__})"
            raise dns.resolver.NoNameservers from exc


@cache
def dns_resolver() -> Resolver:
    """The system resolver (Lambda's VPC resolver in AWS), built once per container."""
    resolver = dns.resolver.Resolver()
    resolver.lifetime = settings().dns_timeout_s
    resolver.cache = dns.resolver.LRUCache()
    return resolver


def validate_email(arguments: EmailInput, _ctx: ServiceContext) -> EmailOutput:
    try:
        parsed = check_syntax(arguments.email, check_deliverability=False)
    except EmailNotValidError as exc:
        return EmailOutput(valid=False, reason=str(exc), deliverability="not_checked")
    result = EmailOutput(
        valid=True,
        normalized=parsed.normalized,
        local_part=parsed.local_part,
        domain=parsed.domain,
        ascii_email=parsed.ascii_email,
        smtputf8=parsed.smtputf8,
        deliverability="not_checked",
    )
    if not arguments.check_deliverability:
        return result
    if getattr(parsed, "domain_address", None) is not None:  # set only for [1.2.3.4] domains
        return result.model_copy(update={"deliverability_note": "a domain literal has no DNS records to check"})
    return _with_deliverability(result, parsed.ascii_domain, parsed.domain)


def _with_deliverability(result: EmailOutput, ascii_domain: str, domain: str) -> EmailOutput:
    try:
        resolver = AnswerOrUnknown(dns_resolver())
    except Exception as exc:  # e.g. NoResolverConfiguration: no resolv.conf in this sandbox
        return result.model_copy(
            update={"deliverability": "unknown", "deliverability_note": f"no DNS resolver ({type(exc).__name__})"}
        )
    try:
        info = validate_email_deliverability(ascii_domain, domain, dns_resolver=resolver)  # type: ignore[arg-type]
    except EmailUndeliverableError as exc:
        if not _knows_the_root(resolver):
            note = resolver.failure or "the DNS resolver cannot resolve the root zone, so its answers are not usable"
            return result.model_copy(update={"deliverability": "unknown", "deliverability_note": note})
        return result.model_copy(update={"valid": False, "reason": str(exc), "deliverability": "undeliverable"})
    if "unknown-deliverability" in info:
        note = resolver.failure or f"DNS could not answer ({info['unknown-deliverability']})"
        return result.model_copy(update={"deliverability": "unknown", "deliverability_note": note})
    mx = [MxHost(preference=preference, host=host) for preference, host in info.get("mx", [])]
    return result.model_copy(update={"deliverability": "deliverable", "mx": mx})


def _knows_the_root(resolver: Resolver) -> bool:
    """Every working resolver can name the root servers; one that cannot is lying or cut off."""
    try:
        resolver.resolve(".", "NS")
    except Exception:  # any failure here means the earlier verdict cannot be trusted
        return False
    return True
