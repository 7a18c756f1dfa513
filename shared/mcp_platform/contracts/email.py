"""email: addresses, a domain's mail DNS (MX, SPF, DMARC, DKIM), RFC 5322 message parsing, and
sending through Amazon SES v2 from the deployment's verified identity, with a per-account daily cap.

Verdicts are answers: an invalid address or a domain without DMARC is a successful result that says
so. Errors are kept for a call the caller must fix (a malformed argument, a recipient on the
suppression list, the daily cap reached) or a backend that cannot answer (DNS, SES).
"""

from __future__ import annotations

import re
from email.headerregistry import HeaderRegistry
from functools import partial
from typing import Annotated, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema, field_validator, model_validator

from mcp_platform.catalogue.registry import Annotations, ToolInput, ToolSpec
from mcp_platform.contracts._common import StatusInput, StatusOutput, status_tool
from mcp_platform.contracts._staging import STAGED_OBJECT_SCHEMA, STAGING_ID
from mcp_platform.protocol.schema import output_schema

SERVICE = "email"
MAX_RECIPIENTS = 50
"""SES v2 accepts 50 recipients per message (To, Cc and Bcc together)."""
MAX_RAW_CHARS = 1_400_000
"""About 1 MiB of message as base64; larger messages go through staging_upload_url and staging_id."""
_HOSTNAME = r"^([A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9-]{2,63}\.?$"
_SELECTOR = r"^[A-Za-z0-9_-]{1,63}(\.[A-Za-z0-9_-]{1,63})*$"
_LINE_BREAK = re.compile(r"[\r\n\x00]")
_HEADERS = HeaderRegistry()


def _single_line(field: str, value: str) -> str:
    if _LINE_BREAK.search(value):
        raise ValueError(f"{field} must be one line: no CR, LF or NUL (header injection)")
    return value


def mailbox(value: str, field: str = "address") -> str:
    """`value` as one mailbox (`anna@example.com` or `Anna <anna@example.com>`), re-rendered by the stdlib.

    The stdlib's header parser reads it, so quoting and encoded words follow RFC 5322. Raises
    `ValueError` naming `field` for anything else: several addresses, a group, line breaks, defects.
    """
    _single_line(field, value)
    header = _HEADERS("to", value)
    groups = header.groups  # type: ignore[attr-defined]
    if len(groups) != 1 or groups[0].display_name is not None or len(groups[0].addresses) != 1 or header.defects:
        raise ValueError(f"{field}: {value!r} is not one email address")
    address = groups[0].addresses[0]
    if not (address.username and _is_hostname(address.domain)):
        raise ValueError(f"{field}: {value!r} is not one email address")
    return str(address)


def _is_hostname(domain: str) -> bool:
    try:
        ascii_domain = domain.encode("idna").decode("ascii")
    except UnicodeError:
        return False
    return len(ascii_domain) <= 253 and re.match(_HOSTNAME, ascii_domain) is not None


# ---------------------------------------------------------------- inputs


class ValidateInput(ToolInput):
    email: str = Field(min_length=3, max_length=320, description="The address, e.g. 'anna@example.com'.")
    check_mx: bool = Field(
        default=True,
        description="Look up the domain's MX records (falling back to A/AAAA, as mail servers do). A lookup that "
        "cannot complete gives mx_present null with a dns_note, never false.",
    )


class DnsCheckInput(ToolInput):
    domain: str = Field(pattern=_HOSTNAME, max_length=253, description="The mail domain, e.g. 'example.com'.")
    dkim_selectors: list[str] = Field(
        default_factory=list,
        max_length=10,
        description="DKIM selectors to look up at <selector>._domainkey.<domain> (e.g. 'google', 'selector1'). "
        "Empty: a handful of common selectors is tried. DKIM keys cannot be listed, so a miss is a hint only.",
    )

    @field_validator("domain")
    @classmethod
    def _lower(cls, value: str) -> str:
        return value.lower().rstrip(".")

    @field_validator("dkim_selectors")
    @classmethod
    def _selectors(cls, value: list[str]) -> list[str]:
        for selector in value:
            if not re.match(_SELECTOR, selector):
                raise ValueError(f"{selector!r} is not a DKIM selector (letters, digits, '-', '_', dots)")
        return list(dict.fromkeys(value))


class ParseInput(ToolInput):
    raw: str | None = Field(
        default=None,
        max_length=MAX_RAW_CHARS,
        description="The whole message (RFC 5322, as in a .eml file): its text, or the text as base64.",
    )
    staging_id: str | None = Field(
        default=None,
        pattern=STAGING_ID.pattern,
        description="A staged .eml file of your account (stg_ + 32 hex digits), for messages too large for `raw`.",
    )
    max_text_chars: int = Field(
        default=50_000, ge=100, le=500_000, description="Cap on each of the text and html bodies returned."
    )

    @model_validator(mode="after")
    def _one_source(self) -> Self:
        if (self.raw is None) == (self.staging_id is None):
            raise ValueError("give exactly one of raw and staging_id")
        return self


class SendInput(ToolInput):
    to: list[str] = Field(
        min_length=1,
        max_length=MAX_RECIPIENTS,
        description="Recipients: 'anna@example.com' or 'Anna Example <anna@example.com>', one address per item.",
    )
    cc: list[str] = Field(default_factory=list, max_length=MAX_RECIPIENTS, description="Copy recipients.")
    subject: str = Field(min_length=1, max_length=998, description="One line (no line breaks).")
    text: str | None = Field(default=None, max_length=200_000, description="Plain-text body.")
    html: str | None = Field(default=None, max_length=500_000, description="HTML body (sent beside `text`).")
    reply_to: list[str] = Field(default_factory=list, max_length=5, description="Reply-To addresses.")

    @field_validator("to", "cc", "reply_to")
    @classmethod
    def _mailboxes(cls, value: list[str]) -> list[str]:
        return [mailbox(item, "address") for item in value]

    @field_validator("subject")
    @classmethod
    def _subject(cls, value: str) -> str:
        return _single_line("subject", value)

    @model_validator(mode="after")
    def _body_and_limits(self) -> Self:
        if not (self.text or self.html):
            raise ValueError("give text, html or both")
        if len(self.to) + len(self.cc) > MAX_RECIPIENTS:
            raise ValueError(f"at most {MAX_RECIPIENTS} recipients in to and cc together")
        return self


class SuppressionInput(ToolInput):
    email: str = Field(min_length=3, max_length=320, description="The address to look up.")

    @field_validator("email")
    @classmethod
    def _one(cls, value: str) -> str:
        return _HEADERS("to", mailbox(value, "email")).addresses[0].addr_spec  # type: ignore[attr-defined,no-any-return]


# ---------------------------------------------------------------- outputs


class MxRecord(BaseModel):
    preference: int
    host: str


class ValidateOutput(BaseModel):
    email: str = Field(description="The address as given.")
    valid: bool = Field(description="Syntax verdict (RFC 5322 / 6531); MX is reported separately.")
    reason: str | None = Field(default=None, description="Why the address is invalid.")
    normalized: str | None = None
    local_part: str | None = None
    domain: str | None = None
    ascii_domain: str | None = Field(default=None, description="The domain in punycode.")
    mx_present: bool | None = Field(
        default=None, description="true: the domain accepts mail (MX, or A/AAAA fallback); null: not checked/unknown."
    )
    mx: list[MxRecord] = Field(default_factory=list)
    disposable: bool = Field(default=False, description="The domain is on the disposable-email-domains blocklist.")
    role_account: bool = Field(default=False, description="A role mailbox (admin@, info@, noreply@, ...).")
    dns_note: str | None = Field(default=None, description="Why MX is unknown, when it is.")


class SpfTerm(BaseModel):
    qualifier: Literal["+", "-", "~", "?"] | None = Field(default=None, description="Mechanisms only.")
    kind: str = Field(description="Mechanism (all, include, a, mx, ip4, ip6, exists, ptr) or modifier name.")
    value: str | None = None


class Spf(BaseModel):
    record: str | None = Field(default=None, description="The v=spf1 TXT record, if exactly one exists.")
    records_found: int
    terms: list[SpfTerm] = Field(default_factory=list)
    all: str | None = Field(default=None, description="The `all` qualifier: '-' fail, '~' softfail, '?', '+'.")
    dns_lookups: int = Field(default=0, description="DNS-querying terms, includes followed (RFC 7208 limit: 10).")
    errors: list[str] = Field(default_factory=list)


class Dmarc(BaseModel):
    record: str | None = None
    records_found: int
    policy: Literal["none", "quarantine", "reject"] | None = None
    subdomain_policy: Literal["none", "quarantine", "reject"] | None = None
    percent: int | None = None
    rua: list[str] = Field(default_factory=list, description="Aggregate report addresses.")
    ruf: list[str] = Field(default_factory=list, description="Forensic report addresses.")
    adkim: Literal["r", "s"] | None = None
    aspf: Literal["r", "s"] | None = None
    errors: list[str] = Field(default_factory=list)


class DkimKey(BaseModel):
    selector: str
    found: bool
    key_type: str | None = None
    key_bits: int | None = Field(default=None, description="RSA modulus size, when the key parses.")
    testing: bool | None = Field(default=None, description="t=y: the domain is testing DKIM.")
    revoked: bool | None = Field(default=None, description="An empty p=: the key is revoked.")


class Finding(BaseModel):
    severity: Literal["error", "warning", "info"]
    code: str
    message: str


class DnsCheckOutput(BaseModel):
    domain: str
    mx: list[MxRecord]
    spf: Spf
    dmarc: Dmarc
    dkim: list[DkimKey]
    findings: list[Finding]
    score: int = Field(ge=0, le=100, description="100 minus the weight of each finding.")
    grade: Literal["A", "B", "C", "D", "F"]


class Mailbox(BaseModel):
    name: str | None = None
    address: str


class Header(BaseModel):
    name: str
    value: str


class AuthResult(BaseModel):
    authserv_id: str | None = Field(default=None, description="Who checked (the receiving server).")
    method: str = Field(description="spf, dkim, dmarc, arc, ...")
    result: str = Field(description="pass, fail, softfail, neutral, none, temperror, permerror, ...")
    properties: dict[str, str] = Field(default_factory=dict, description="e.g. header.d, smtp.mailfrom.")


class Attachment(BaseModel):
    filename: str | None = None
    media_type: str
    size: int
    inline: bool = Field(description="Content-Disposition inline (e.g. an embedded image) rather than attachment.")
    file: Annotated[dict[str, object], WithJsonSchema(STAGED_OBJECT_SCHEMA)]


class ParseOutput(BaseModel):
    model_config = ConfigDict(serialize_by_alias=True)

    subject: str | None = None
    date: str | None = Field(default=None, description="The Date header as ISO 8601, when it parses.")
    message_id: str | None = None
    from_: list[Mailbox] = Field(default_factory=list, serialization_alias="from")
    to: list[Mailbox] = Field(default_factory=list)
    cc: list[Mailbox] = Field(default_factory=list)
    reply_to: list[Mailbox] = Field(default_factory=list)
    headers: list[Header] = Field(description="Every header in order (first 200), values decoded.")
    text: str | None = None
    html: str | None = None
    truncated: bool = Field(description="true when text or html was cut at max_text_chars.")
    attachments: list[Attachment] = Field(default_factory=list)
    authentication_results: list[AuthResult] = Field(default_factory=list)
    defects: list[str] = Field(default_factory=list, description="What the parser had to repair.")


class SendOutput(BaseModel):
    model_config = ConfigDict(serialize_by_alias=True)

    message_id: str = Field(description="SES's id of the accepted message.")
    from_: str = Field(serialization_alias="from")
    recipients: int
    sent_today: int = Field(description="Messages your account sent today (UTC), this one included.")
    daily_cap: int
    suppression_checked: bool = Field(description="Whether the recipients were checked against SES's suppression list.")


class SuppressionOutput(BaseModel):
    email: str
    suppressed: bool
    reason: Literal["BOUNCE", "COMPLAINT"] | None = None
    last_update: str | None = None


class SesQuota(BaseModel):
    max_24_hour_send: float
    max_send_rate: float
    sent_last_24_hours: float
    sending_enabled: bool | None = None
    production_access: bool | None = Field(default=None, description="false: the SES account is in the sandbox.")


class QuotaOutput(BaseModel):
    daily_cap: int = Field(description="Messages your account may send per UTC day.")
    sent_today: int
    remaining_today: int
    resets_at: str = Field(description="Next UTC midnight, ISO 8601.")
    ses: SesQuota | None = Field(default=None, description="The deployment's SES sending quota, when SES answers.")
    ses_note: str | None = None


class EmailStatus(StatusOutput):
    from_identity: str | None = Field(description="The verified SES identity messages are sent from; null: not set.")
    daily_cap: int
    send_rate_per_second: int
    suppression_check: Literal["ses", "off"]
    dns_nameservers: list[str] = Field(description="Empty: the system resolver.")
    disposable_domains: int
    libraries: dict[str, str]


# ---------------------------------------------------------------- tools

_LOOKUP = Annotations(read_only=True, idempotent=True, open_world=True)
_tool = partial(ToolSpec, service=SERVICE, annotations=_LOOKUP, price=1)

TOOLS = [
    _tool(
        name="email_validate",
        title="Validate an email address",
        description="Checks an address's syntax (RFC 5322 / 6531, internationalised domains), normalises it, looks "
        "up the domain's MX records and flags disposable domains and role mailboxes. An invalid address is an "
        "answer (valid: false with a reason). 1 credit.",
        input_model=ValidateInput,
        output_schema=output_schema(ValidateOutput),
    ),
    _tool(
        name="email_dns_check",
        title="Check a domain's mail DNS",
        description="Reads a domain's MX, SPF (parsed, DNS lookups counted), DMARC (parsed policy) and DKIM keys at "
        "the given selectors, and grades the set-up A-F with a finding per problem. 1 credit.",
        input_model=DnsCheckInput,
        output_schema=output_schema(DnsCheckOutput),
    ),
    _tool(
        name="email_parse",
        title="Parse an email message",
        description="Parses an RFC 5322 message (.eml text, base64, or a staging id): headers, from/to/cc, subject, "
        "date, text and html bodies, Authentication-Results, and attachments (name, type, size; each one staged "
        "with a download URL). 1 credit.",
        input_model=ParseInput,
        output_schema=output_schema(ParseOutput),
        annotations=Annotations(read_only=True, idempotent=False, open_world=False),
    ),
    _tool(
        name="email_send",
        title="Send an email",
        description="Sends a message through Amazon SES from the deployment's verified address, to at most 50 "
        "recipients. Recipients on SES's suppression list, a full daily cap or a malformed header are refused "
        "before anything is sent or charged. 2 credits.",
        input_model=SendInput,
        output_schema=output_schema(SendOutput),
        annotations=Annotations(read_only=False, destructive=False, idempotent=False, open_world=True),
        price=2,
    ),
    _tool(
        name="email_suppression_check",
        title="Is an address suppressed?",
        description="Looks an address up on the deployment's SES account-level suppression list (bounces and "
        "complaints), which email_send refuses to send to. 1 credit.",
        input_model=SuppressionInput,
        output_schema=output_schema(SuppressionOutput),
    ),
    _tool(
        name="email_quota",
        title="Email sending quota",
        description="Your account's daily sending cap, what it has used today, and the deployment's SES quota. "
        "1 credit.",
        input_model=StatusInput,
        output_schema=output_schema(QuotaOutput),
    ),
    status_tool(
        SERVICE,
        title="email service status",
        description="Sender identity, caps, suppression checking, DNS resolver and library versions. Free.",
        output_schema=output_schema(EmailStatus),
    ),
]
