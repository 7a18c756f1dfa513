"""EPC069-12 "SEPA credit transfer" payload (version 002, UTF-8).

Twelve fields, one per line (LF), in this order; the payload ends at the last
non-empty field:

    BCD | 002 | 1 (UTF-8) | SCT | BIC | name | IBAN | EUR<amount> | purpose |
    structured reference | unstructured text | beneficiary-to-payer information

The standard caps the whole payload at 331 bytes and the symbol at version 13
with error correction M. IBAN and BIC are checked with schwifty, the creditor
reference (ISO 11649) with python-stdnum: a payment code must not carry a typo.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcp_platform.protocol.errors import ErrorCode, ToolError

if TYPE_CHECKING:
    from mcp_platform.contracts.qr import EpcInput

MAX_PAYLOAD_BYTES = 331
MAX_VERSION = 13
ERROR_CORRECTION = "M"
UTF8 = "1"


def epc_payload(arguments: EpcInput) -> str:
    amount = f"EUR{arguments.amount:.2f}" if arguments.amount is not None else ""
    fields = [
        "BCD",
        "002",
        UTF8,
        "SCT",
        _bic(arguments.bic),
        arguments.name,
        _iban(arguments.iban),
        amount,
        arguments.purpose or "",
        _reference(arguments.reference),
        arguments.text or "",
        arguments.information or "",
    ]
    while not fields[-1]:
        fields.pop()
    payload = "\n".join(fields)
    if len(payload.encode()) > MAX_PAYLOAD_BYTES:
        raise too_large(f"the payload would be {len(payload.encode())} bytes; EPC069-12 allows {MAX_PAYLOAD_BYTES}")
    return payload


def _iban(value: str) -> str:
    # schwifty and stdnum (~15 ms with their registries) load with the first EPC code, not at init.
    from schwifty import IBAN
    from schwifty.exceptions import SchwiftyException

    try:
        return IBAN(value).compact
    except SchwiftyException as exc:
        raise _invalid(f"iban: not a valid IBAN ({exc})") from None


def _bic(value: str | None) -> str:
    if not value:
        return ""
    from schwifty import BIC
    from schwifty.exceptions import SchwiftyException

    try:
        return BIC(value).compact
    except SchwiftyException as exc:
        raise _invalid(f"bic: not a valid BIC ({exc})") from None


def _reference(value: str | None) -> str:
    if not value:
        return ""
    from stdnum import iso11649
    from stdnum.exceptions import ValidationError

    try:
        return iso11649.validate(value)
    except ValidationError as exc:
        raise _invalid(
            f"reference: not an ISO 11649 creditor reference ({exc}); put free text in `text` instead"
        ) from None


def _invalid(message: str) -> ToolError:
    return ToolError(message, ErrorCode.INVALID_ARGUMENTS)


def too_large(detail: str) -> ToolError:
    return _invalid(f"text, information, name: {detail}; shorten them")
