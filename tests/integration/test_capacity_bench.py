"""bench/capacity.py counts what the billing docs quote (docs/billing-faults.md, capacity figures)."""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING

from tests.conftest import ROOT

if TYPE_CHECKING:
    import pytest


def test_the_capacity_figures_hold(monkeypatch: pytest.MonkeyPatch) -> None:
    # The script quiets Powertools for its run (POWERTOOLS_LOG_LEVEL, if unset, at import). Set here, the
    # variable is undone after the test: the local servers later tests start must log at INFO.
    monkeypatch.setenv("POWERTOOLS_LOG_LEVEL", "WARNING")
    spec = importlib.util.spec_from_file_location("capacity", ROOT / "bench" / "capacity.py")
    assert spec is not None and spec.loader is not None
    capacity = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(capacity)
    figures = capacity.measure()
    billed = figures["billed"]["units"]
    assert billed["open index shard"] == 2 and billed["account"] == 3  # debit 1 + journal removal in a transaction 2
    assert figures["free"]["units"] == {"rate counter": 1}
    assert "open index shard" not in figures["replay"]["units"]
    ceilings = capacity.ceilings(figures, shards=32)
    assert ceilings["billed"] == {"per_account": 333, "per_open_shard": 500, "platform": 13_333}
