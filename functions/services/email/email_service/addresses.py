"""email_validate: syntax through email-validator, MX through the service's resolver, and flags."""

from __future__ import annotations

from typing import TYPE_CHECKING

from disposable_email_domains import blocklist
from email_validator import EmailNotValidError
from email_validator import validate_email as check_syntax

from email_service import dns_lookup
from mcp_platform.contracts.email import MxRecord, ValidateOutput
from mcp_platform.protocol.errors import ToolError

if TYPE_CHECKING:
    from mcp_platform.contracts.email import ValidateInput
    from mcp_platform.runtime.service import ServiceContext

ROLE_MAILBOXES = frozenset(
    "abuse admin administrator billing contact help hostmaster info marketing no-reply noreply "
    "postmaster sales security support webmaster".split()
)


def email_validate(arguments: ValidateInput, _ctx: ServiceContext) -> ValidateOutput:
    try:
        parsed = check_syntax(arguments.email, check_deliverability=False)
    except EmailNotValidError as exc:
        return ValidateOutput(email=arguments.email, valid=False, reason=str(exc))
    out = ValidateOutput(
        email=arguments.email,
        valid=True,
        normalized=parsed.normalized,
        local_part=parsed.local_part,
        domain=parsed.domain,
        ascii_domain=parsed.ascii_domain,
        disposable=is_disposable(parsed.ascii_domain),
        role_account=parsed.local_part.lower().split("+", 1)[0] in ROLE_MAILBOXES,
    )
    if not arguments.check_mx or getattr(parsed, "domain_address", None) is not None:
        return out
    try:
        records = [MxRecord(preference=pref, host=host) for pref, host in dns_lookup.mx(parsed.ascii_domain)]
        if records:  # a null MX (RFC 7505: one record, host ".") says the domain takes no mail
            present = not (len(records) == 1 and records[0].host in {"", "."})
        else:  # no MX: mail goes to the domain's own address (RFC 5321 5.1)
            present = dns_lookup.has_address(parsed.ascii_domain)
    except ToolError as exc:
        return out.model_copy(update={"dns_note": exc.message})
    return out.model_copy(update={"mx_present": present, "mx": records})


def is_disposable(domain: str) -> bool:
    """The domain or any parent domain is on the blocklist (throwaway services use subdomains too)."""
    labels = domain.lower().split(".")
    return any(".".join(labels[i:]) in blocklist for i in range(len(labels) - 1))
