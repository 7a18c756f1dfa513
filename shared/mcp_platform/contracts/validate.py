"""validate: offline checks of identifiers and documents (python-stdnum, phonenumbers,
schwifty, email-validator, jsonschema), plus the optional live EU VIES VAT check.

Every validator answers with a verdict: an invalid value is a successful result with
`valid: false` and a `reason`, never an error. Errors are kept for what the caller
must fix in the call itself (a malformed argument) or for a backend that is down.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, field_validator

from mcp_platform.catalogue.registry import Annotations, ToolInput, ToolSpec
from mcp_platform.contracts._common import StatusOutput, status_tool
from mcp_platform.contracts._stdnum_kinds import KINDS
from mcp_platform.protocol.schema import output_schema

SERVICE = "validate"
PATTERN_SEARCH_MS = 100
"""validate_json: the time one schema regex may take on one string. A sane pattern needs microseconds; one that
backtracks (`^(a|a)+$`) needs years, which is the case this stops."""
PATTERN_CALL_MS = 1_000
"""validate_json: the time all the regex searches of one call may take together, so that many strings just under
`PATTERN_SEARCH_MS` cannot add up to the function's timeout. A plain search costs about 5 µs (3 of them the
timeout's own), so this is some 200,000 searches: about as many strings as a 1 MB request body holds, whose walk
by jsonschema takes longer than its searches."""
NumberKind = Literal[KINDS]  # type: ignore[valid-type]  # generated from python-stdnum


def _upper_country(value: str | None) -> str | None:
    return value.upper() if value else value


# ---------------------------------------------------------------- inputs


class EmailInput(ToolInput):
    email: str = Field(min_length=1, max_length=320, description="The address, e.g. 'anna@example.com'.")
    check_deliverability: bool = Field(
        default=False,
        description="Also look up the domain's MX (or A/AAAA) records in DNS. A lookup that cannot be "
        "completed gives deliverability 'unknown', never 'undeliverable'.",
    )


class PhoneInput(ToolInput):
    number: str = Field(
        min_length=1, max_length=64, description="The number, international (+36 1 234 5678) or national."
    )
    region: str | None = Field(
        default=None,
        pattern=r"^[A-Za-z]{2}$",
        description="ISO 3166-1 alpha-2 region used to read a national number (e.g. 'HU'); not needed "
        "when the number starts with +.",
    )

    _upper = field_validator("region")(_upper_country)


class IbanInput(ToolInput):
    iban: str = Field(min_length=1, max_length=64, description="The IBAN, with or without spaces.")


class BicInput(ToolInput):
    bic: str = Field(min_length=1, max_length=32, description="The BIC / SWIFT code, 8 or 11 characters.")


class VatInput(ToolInput):
    number: str = Field(
        min_length=1, max_length=32, description="The VAT number, with its country prefix (DE123456789) or without."
    )
    country: str | None = Field(
        default=None,
        pattern=r"^[A-Za-z]{2}$",
        description="EU country code to use when `number` has no prefix (EL for Greece, XI for Northern Ireland).",
    )
    live: bool = Field(
        default=False,
        description="Also ask the EU VIES service whether the number is registered (adds the trader's name "
        "and address where the member state publishes them). VIES or a member state being down gives "
        "live.status 'unavailable', which says nothing about the number.",
    )

    _upper = field_validator("country")(_upper_country)


class CardInput(ToolInput):
    number: str = Field(
        min_length=1,
        max_length=40,
        description="The card number; spaces and dashes are ignored. Never logged or stored.",
    )


class UrlInput(ToolInput):
    url: str = Field(min_length=1, max_length=8192, description="The absolute URL to check.")
    allowed_schemes: list[str] = Field(
        default_factory=lambda: ["http", "https"],
        min_length=1,
        max_length=20,
        description="Schemes that count as valid; e.g. ['http', 'https', 'ftp', 'mailto'].",
    )

    @field_validator("allowed_schemes")
    @classmethod
    def _lower_schemes(cls, value: list[str]) -> list[str]:
        return [scheme.lower() for scheme in value]


class JsonInput(ToolInput):
    model_config = ConfigDict(populate_by_name=True)

    document: JsonValue = Field(description="The JSON value to check (object, array, string, number, ...).")
    json_schema: dict[str, Any] = Field(
        alias="schema",
        description="The JSON Schema (draft 2020-12 unless it declares another `$schema`). Remote `$ref`s "
        "are not fetched.",
    )
    parse_text: bool = Field(
        default=False,
        description="true: `document` is a string holding JSON text; it is parsed first and a syntax "
        "error is reported as valid: false.",
    )
    check_formats: bool = Field(
        default=False,
        description="Treat `format` (email, date-time, uri, ...) as an assertion, not just an annotation.",
    )


class NumberInput(ToolInput):
    number: str = Field(min_length=1, max_length=256, description="The number or code to check.")
    kind: NumberKind = Field(
        description="The python-stdnum format, e.g. 'isbn', 'issn', 'ean', 'isin', 'lei', 'iban', "
        "'de.idnr', 'hu.anum', 'nl.bsn', 'us.ssn'.",
    )


# ---------------------------------------------------------------- outputs


class Verdict(BaseModel):
    valid: bool = Field(description="The verdict.")
    reason: str | None = Field(default=None, description="Why the value is invalid; absent when valid.")


class MxHost(BaseModel):
    preference: int
    host: str


class EmailOutput(Verdict):
    normalized: str | None = Field(default=None, description="The address as it should be stored.")
    local_part: str | None = None
    domain: str | None = None
    ascii_email: str | None = Field(default=None, description="ASCII form (IDNA domain), when one exists.")
    smtputf8: bool | None = Field(default=None, description="The address needs an SMTPUTF8-capable server.")
    deliverability: Literal["not_checked", "deliverable", "undeliverable", "unknown"]
    deliverability_note: str | None = Field(default=None, description="Why deliverability is unknown.")
    mx: list[MxHost] | None = Field(default=None, description="Mail hosts by preference (an A/AAAA fallback is 0).")


class PhoneOutput(Verdict):
    possible: bool = Field(description="The length fits the region, even if the number is not assigned.")
    e164: str | None = Field(default=None, description="E.164 form, e.g. +3612345678.")
    international: str | None = None
    national: str | None = None
    type: str | None = Field(default=None, description="mobile, fixed_line, fixed_line_or_mobile, toll_free, voip, ...")
    region: str | None = Field(default=None, description="ISO 3166-1 alpha-2 region the number belongs to.")
    country_code: int | None = Field(default=None, description="International calling code, e.g. 36.")


class IbanOutput(Verdict):
    iban: str | None = Field(default=None, description="Electronic form, no spaces.")
    formatted: str | None = Field(default=None, description="Print form in groups of four.")
    country_code: str | None = None
    country: str | None = None
    bank_code: str | None = None
    branch_code: str | None = None
    account_code: str | None = None
    bic: str | None = Field(default=None, description="The bank's BIC, when the bank registry knows it.")
    bank_name: str | None = None


class BicOutput(Verdict):
    bic: str | None = Field(default=None, description="Compact form.")
    formatted: str | None = None
    bank_code: str | None = None
    country_code: str | None = None
    location_code: str | None = None
    branch_code: str | None = None
    registered: bool | None = Field(default=None, description="Found in schwifty's bank registry (not exhaustive).")
    bank_names: list[str] | None = None


class VatLive(BaseModel):
    status: Literal["valid", "invalid", "unavailable", "not_checked"] = Field(
        description="VIES's answer. 'unavailable' (VIES or the member state could not answer) says "
        "nothing about the number; 'not_checked' when the format is already invalid."
    )
    source: Literal["EU VIES"] = "EU VIES"
    name: str | None = None
    address: str | None = None
    request_date: str | None = None
    detail: str | None = Field(default=None, description="VIES's error code when unavailable, e.g. MS_UNAVAILABLE.")


class VatOutput(Verdict):
    vat: str | None = Field(default=None, description="Compact form with the country prefix.")
    country_code: str | None = None
    live: VatLive | None = Field(default=None, description="Present when live=true.")


class CardOutput(Verdict):
    luhn_valid: bool
    brand: str | None = Field(default=None, description="visa, mastercard, amex, discover, jcb, ... by IIN range.")
    length: int
    last4: str | None = None
    masked: str | None = Field(default=None, description="All but the last four digits hidden.")


class UrlOutput(Verdict):
    normalized: str | None = None
    scheme: str | None = None
    host: str | None = Field(default=None, description="Host as sent on the wire (IDNA / punycode).")
    host_unicode: str | None = None
    port: int | None = None
    path: str | None = None
    query: str | None = None
    fragment: str | None = None
    has_credentials: bool | None = Field(default=None, description="The URL embeds a user name or password.")


class JsonError(BaseModel):
    path: str = Field(description="JSON Pointer to the failing part of the document ('' is the root).")
    schema_path: str = Field(description="JSON Pointer to the failing keyword in the schema.")
    keyword: str
    message: str


class JsonOutput(Verdict):
    draft: str = Field(description="The JSON Schema dialect used.")
    error_count: int
    errors: list[JsonError] = Field(description="Failures by document path, at most 50.")
    truncated: bool = Field(description="More failures than listed.")


class NumberOutput(Verdict):
    kind: str
    name: str = Field(description="What the format is, from python-stdnum.")
    compact: str | None = Field(default=None, description="Minimal form, separators removed.")
    formatted: str | None = Field(default=None, description="Conventional print form, when the format defines one.")


class ValidateStatus(StatusOutput):
    service: Literal["validate"] = "validate"
    libraries: dict[str, str] = Field(description="Library versions in use.")
    number_kinds: int = Field(description="How many formats validate_number accepts.")
    vies_endpoint: str = Field(description="Where live VAT checks go.")


# ---------------------------------------------------------------- tools

_OFFLINE = Annotations(read_only=True, idempotent=True, open_world=False)
_NETWORK = Annotations(read_only=True, idempotent=True, open_world=True)
_COST = " Invalid values are an answer (valid: false with a reason), not an error. Costs 1 credit."


_tool = partial(ToolSpec, service=SERVICE, annotations=_OFFLINE, price=1)


TOOLS = [
    _tool(
        name="validate_email",
        title="Validate an email address",
        description="Checks an email address's syntax (RFC 5322 / 6531, internationalised domains) and returns its "
        "normalised form; with check_deliverability also looks up the domain's mail servers in DNS." + _COST,
        input_model=EmailInput,
        output_schema=output_schema(EmailOutput),
        annotations=_NETWORK,
    ),
    _tool(
        name="validate_phone",
        title="Validate a phone number",
        description="Parses a phone number (libphonenumber) and returns E.164, international and national forms, the "
        "line type and the region. No carrier look-up." + _COST,
        input_model=PhoneInput,
        output_schema=output_schema(PhoneOutput),
    ),
    _tool(
        name="validate_iban",
        title="Validate an IBAN",
        description="Checks an IBAN's country format, length and check digits (and the national checksum where "
        "known); returns the formatted IBAN, country, bank code and, where the registry knows it, the "
        "bank's BIC and name." + _COST,
        input_model=IbanInput,
        output_schema=output_schema(IbanOutput),
    ),
    _tool(
        name="validate_bic",
        title="Validate a BIC",
        description="Checks a BIC / SWIFT code's structure and country, splits it into bank, country, location and "
        "branch codes and says whether schwifty's bank registry knows it." + _COST,
        input_model=BicInput,
        output_schema=output_schema(BicOutput),
    ),
    _tool(
        name="validate_vat",
        title="Validate an EU VAT number",
        description="Checks an EU VAT number's format and check digits offline; with live=true also asks EU VIES "
        "whether it is registered. VIES being down is reported as live.status 'unavailable', not as "
        "invalid." + _COST,
        input_model=VatInput,
        output_schema=output_schema(VatOutput),
        annotations=_NETWORK,
    ),
    _tool(
        name="validate_card",
        title="Validate a payment card number",
        description="Checks a payment card number's Luhn digit and length and names its brand by IIN range. The "
        "number is never logged or stored; the answer shows only the last four digits." + _COST,
        input_model=CardInput,
        output_schema=output_schema(CardOutput),
    ),
    _tool(
        name="validate_url",
        title="Validate a URL",
        description="Parses an absolute URL (a web address, WHATWG rules), returns its normalised form and parts, "
        "with the host in "
        "both punycode and Unicode; checks the scheme against allowed_schemes. Does not fetch it." + _COST,
        input_model=UrlInput,
        output_schema=output_schema(UrlOutput),
    ),
    _tool(
        name="validate_json",
        title="Validate JSON against a JSON Schema",
        description="Validates a JSON document against a JSON Schema (draft 2020-12 by default) and lists every "
        "failure with its JSON Pointer path in the document and in the schema. An invalid schema is an "
        f"error naming `schema`. Regexes (`pattern`, `patternProperties`, format `regex`) use Python's syntax; "
        f"one may take {PATTERN_SEARCH_MS} ms on a string and all of a call's {PATTERN_CALL_MS} ms, past which "
        "the call is an error naming the pattern." + _COST,
        input_model=JsonInput,
        output_schema=output_schema(JsonOutput),
    ),
    _tool(
        name="validate_number",
        title="Validate a standard number or code",
        description="Validates any of python-stdnum's ~240 formats (kind): ISBN, ISSN, EAN, ISIN, LEI, GRid, national "
        "IDs, tax and company numbers. Returns the compact and formatted forms." + _COST,
        input_model=NumberInput,
        output_schema=output_schema(NumberOutput),
    ),
    status_tool(
        SERVICE,
        title="validate service status",
        description="Library versions and the number of formats validate_number knows. Free.",
        output_schema=output_schema(ValidateStatus),
    ),
]
