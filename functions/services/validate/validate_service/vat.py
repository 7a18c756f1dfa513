"""EU VAT numbers: format and check digits with python-stdnum, registration with EU VIES."""

from __future__ import annotations

from typing import TYPE_CHECKING

from stdnum.eu import vat
from stdnum.exceptions import ValidationError
from stdnum.util import clean

from mcp_platform.contracts.validate import VatInput, VatLive, VatOutput
from mcp_platform.protocol.errors import ErrorCode, ToolError
from validate_service.vies import vies_client

if TYPE_CHECKING:
    from mcp_platform.runtime.service import ServiceContext

# VIES and stdnum both accept EL for Greece; GR is what people type.
_ALIASES = {"GR": "EL"}


def validate_vat(arguments: VatInput, ctx: ServiceContext) -> VatOutput:
    number = _with_prefix(clean(arguments.number, " -./,").upper().strip(), arguments.country)
    try:
        compact = vat.validate(number)
    except ValidationError as exc:
        reason = str(exc) if number[:2].lower() in vat.MEMBER_STATES else f"{number[:2]!r} is not an EU VAT prefix"
        live = VatLive(status="not_checked", detail="format invalid") if arguments.live else None
        return VatOutput(valid=False, reason=reason, live=live)
    country_code = _ALIASES.get(compact[:2], compact[:2])
    live = None
    if arguments.live:
        live = vies_client().check(country_code, compact[2:], deadline=ctx.deadline_epoch)
    return VatOutput(valid=True, vat=country_code + compact[2:], country_code=country_code, live=live)


def _with_prefix(number: str, country: str | None) -> str:
    """Prefix a bare number with `country`; a prefix already there must agree with it."""
    country = _ALIASES.get(country or "", country)
    if number[:2].isalpha():
        prefix = _ALIASES.get(number[:2], number[:2])
        if country and prefix != country:
            raise ToolError(
                f"country: {country!r} contradicts the number's prefix {prefix!r}; drop one of them",
                ErrorCode.INVALID_ARGUMENTS,
            )
        return number
    if not country:
        raise ToolError(
            "country: the number has no country prefix, so give `country` (e.g. 'DE') or prefix the number",
            ErrorCode.INVALID_ARGUMENTS,
        )
    return country + number
