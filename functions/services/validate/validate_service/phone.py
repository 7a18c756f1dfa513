"""Phone numbers through libphonenumber (the `phonenumbers` port)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import phonenumbers
from phonenumbers import NumberParseException, PhoneNumberFormat, PhoneNumberType, ValidationResult

from mcp_platform.contracts.validate import PhoneInput, PhoneOutput

if TYPE_CHECKING:
    from mcp_platform.runtime.service import ServiceContext

_TYPES = {value: name.lower() for name, value in vars(PhoneNumberType).items() if name.isupper()}
_PARSE_REASONS = {
    NumberParseException.INVALID_COUNTRY_CODE: "no valid country code: start with + or give `region`",
    NumberParseException.NOT_A_NUMBER: "not a phone number",
    NumberParseException.TOO_SHORT_AFTER_IDD: "too short after the international prefix",
    NumberParseException.TOO_SHORT_NSN: "too short",
    NumberParseException.TOO_LONG: "too long",
}
_POSSIBLE_REASONS = {
    ValidationResult.INVALID_COUNTRY_CODE: "unknown country calling code",
    ValidationResult.TOO_SHORT: "too short for its region",
    ValidationResult.TOO_LONG: "too long for its region",
    ValidationResult.INVALID_LENGTH: "length does not match any number in its region",
}


def validate_phone(arguments: PhoneInput, _ctx: ServiceContext) -> PhoneOutput:
    try:
        parsed = phonenumbers.parse(arguments.number, arguments.region)
    except NumberParseException as exc:
        return PhoneOutput(valid=False, possible=False, reason=_PARSE_REASONS.get(exc.error_type, str(exc)))
    possible = phonenumbers.is_possible_number_with_reason(parsed)
    valid = phonenumbers.is_valid_number(parsed)
    reason = None
    if not valid:
        reason = _POSSIBLE_REASONS.get(possible, "not an assigned number range in its region")
    return PhoneOutput(
        valid=valid,
        reason=reason,
        possible=possible in (ValidationResult.IS_POSSIBLE, ValidationResult.IS_POSSIBLE_LOCAL_ONLY),
        e164=phonenumbers.format_number(parsed, PhoneNumberFormat.E164),
        international=phonenumbers.format_number(parsed, PhoneNumberFormat.INTERNATIONAL),
        national=phonenumbers.format_number(parsed, PhoneNumberFormat.NATIONAL),
        type=_TYPES.get(phonenumbers.number_type(parsed), "unknown") if valid else None,
        region=phonenumbers.region_code_for_number(parsed) if valid else None,
        country_code=parsed.country_code,
    )
