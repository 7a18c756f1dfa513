"""Payment card numbers: Luhn (python-stdnum) and brand by IIN range.

The number is sensitive: it is never logged, never echoed back whole, and never
put into an error message. Brands are data (published IIN ranges and lengths),
checked in order so that a narrower range wins over a wider one (Discover's
622126-622925 before UnionPay's 62).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from stdnum import luhn
from stdnum.exceptions import ValidationError

from mcp_platform.contracts.validate import CardInput, CardOutput

if TYPE_CHECKING:
    from mcp_platform.runtime.service import ServiceContext

_SEPARATORS = re.compile(r"[ -]")


@dataclass(frozen=True)
class Brand:
    name: str
    prefixes: tuple[tuple[int, int], ...]
    """Inclusive IIN ranges; both ends have the same number of digits."""
    lengths: tuple[int, ...]

    def matches(self, digits: str) -> bool:
        return any(low <= int(digits[: len(str(low))]) <= high for low, high in self.prefixes)


_SIXTEEN_TO_NINETEEN = (16, 17, 18, 19)
BRANDS = (
    Brand("amex", ((34, 34), (37, 37)), (15,)),
    Brand("diners", ((300, 305), (36, 36), (38, 39)), (14, 15, 16, 17, 18, 19)),
    Brand("jcb", ((3528, 3589),), _SIXTEEN_TO_NINETEEN),
    Brand("mir", ((2200, 2204),), _SIXTEEN_TO_NINETEEN),
    Brand("mastercard", ((51, 55), (2221, 2720)), (16,)),
    Brand("discover", ((6011, 6011), (644, 649), (65, 65), (622126, 622925)), _SIXTEEN_TO_NINETEEN),
    Brand("unionpay", ((62, 62),), _SIXTEEN_TO_NINETEEN),
    Brand(
        "maestro",
        ((5018, 5018), (5020, 5020), (5038, 5038), (5893, 5893), (6304, 6304), (6759, 6759), (6761, 6763)),
        (12, 13, 14, 15, 16, 17, 18, 19),
    ),
    Brand("visa", ((4, 4),), (13, 16, 19)),
)


def brand_of(digits: str) -> Brand | None:
    return next((brand for brand in BRANDS if brand.matches(digits)), None)


def validate_card(arguments: CardInput, _ctx: ServiceContext) -> CardOutput:
    digits = _SEPARATORS.sub("", arguments.number)
    if not digits.isascii() or not digits.isdigit():
        return CardOutput(
            valid=False, luhn_valid=False, length=len(digits), reason="only digits, spaces and dashes are allowed"
        )
    masked = {"last4": digits[-4:], "masked": "*" * max(len(digits) - 4, 0) + digits[-4:], "length": len(digits)}
    try:
        luhn.validate(digits)
        luhn_valid = True
    except ValidationError:
        luhn_valid = False
    brand = brand_of(digits)
    reason = None
    if not luhn_valid:
        reason = "the Luhn check digit does not match"
    elif not 12 <= len(digits) <= 19:
        reason = f"{len(digits)} digits; card numbers have 12 to 19"
    elif brand is not None and len(digits) not in brand.lengths:
        reason = f"{brand.name} numbers have {', '.join(map(str, brand.lengths))} digits, not {len(digits)}"
    return CardOutput(
        valid=reason is None, reason=reason, luhn_valid=luhn_valid, brand=brand.name if brand else None, **masked
    )
