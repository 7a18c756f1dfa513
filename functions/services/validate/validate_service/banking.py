"""IBAN and BIC through schwifty (country formats, check digits, bank registry)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from schwifty import BIC, IBAN
from schwifty.exceptions import SchwiftyException

from mcp_platform.contracts.validate import BicInput, BicOutput, IbanInput, IbanOutput

if TYPE_CHECKING:
    from mcp_platform.runtime.service import ServiceContext

MAX_BANK_NAMES = 10


def validate_iban(arguments: IbanInput, _ctx: ServiceContext) -> IbanOutput:
    try:
        iban = IBAN(arguments.iban)
    except SchwiftyException as exc:
        return IbanOutput(valid=False, reason=str(exc))
    bic = iban.bic
    return IbanOutput(
        valid=True,
        iban=iban.compact,
        formatted=iban.formatted,
        country_code=iban.country_code,
        country=iban.country.name if iban.country else None,
        bank_code=iban.bank_code or None,
        branch_code=iban.branch_code or None,
        account_code=iban.account_code or None,
        bic=str(bic) if bic else None,
        bank_name=iban.bank_name,
    )


def validate_bic(arguments: BicInput, _ctx: ServiceContext) -> BicOutput:
    try:
        bic = BIC(arguments.bic)
    except SchwiftyException as exc:
        return BicOutput(valid=False, reason=str(exc))
    return BicOutput(
        valid=True,
        bic=bic.compact,
        formatted=bic.formatted,
        bank_code=bic.bank_code,
        country_code=bic.country_code,
        location_code=bic.location_code,
        branch_code=bic.branch_code or None,
        registered=bic.exists,
        bank_names=bic.bank_names[:MAX_BANK_NAMES] or None,
    )
