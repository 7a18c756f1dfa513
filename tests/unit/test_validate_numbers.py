"""The validate_number kinds are exactly python-stdnum's formats, and each one works."""

from __future__ import annotations

import stdnum
from stdnum.exceptions import ValidationError

from mcp_platform.contracts._stdnum_kinds import KINDS, STDNUM_VERSION
from scripts.refresh_stdnum_kinds import kinds
from validate_service.numbers import describe, number_module


def test_snapshot_matches_installed_stdnum() -> None:
    """Fails after a python-stdnum bump: run scripts/refresh_stdnum_kinds.py."""
    assert STDNUM_VERSION == stdnum.__version__
    assert list(KINDS) == kinds()


def test_contract_publishes_every_kind(registry) -> None:
    assert registry.get("validate_number").input_schema["properties"]["kind"]["enum"] == list(KINDS)


def test_every_kind_loads_and_gives_a_verdict() -> None:
    for kind in KINDS:
        module = number_module(kind)
        assert describe(module)
        try:
            compact = module.validate("0")
        except ValidationError:
            continue
        assert isinstance(compact, str), kind
