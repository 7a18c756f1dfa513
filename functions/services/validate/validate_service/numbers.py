"""Any python-stdnum format, chosen by its dotted module name (`isbn`, `de.idnr`, ...)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from stdnum.exceptions import ValidationError

from mcp_platform.contracts.validate import NumberInput, NumberOutput

if TYPE_CHECKING:
    from types import ModuleType

    from mcp_platform.runtime.service import ServiceContext


def number_module(kind: str) -> ModuleType:
    """The stdnum module of a kind the contract accepts (the enum is generated from stdnum)."""
    return importlib.import_module(f"stdnum.{kind}")


def describe(module: ModuleType) -> str:
    """First line of the module docstring, e.g. 'ISBN (International Standard Book Number).'."""
    return (module.__doc__ or module.__name__).strip().splitlines()[0]


def validate_number(arguments: NumberInput, _ctx: ServiceContext) -> NumberOutput:
    module = number_module(arguments.kind)
    common = {"kind": arguments.kind, "name": describe(module)}
    try:
        compact = module.validate(arguments.number)
    except ValidationError as exc:
        return NumberOutput(valid=False, reason=exc.message, **common)
    formatted = module.format(compact) if hasattr(module, "format") else None
    return NumberOutput(valid=True, compact=compact, formatted=formatted, **common)
