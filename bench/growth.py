"""Timing helpers of the growth benchmarks: a text of one repeated unit, and the best of a few runs."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable


def seconds(work: Callable[[], object], runs: int = 3) -> float:
    """The fastest of `runs` runs: a busy machine only ever adds time."""
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return best


def repeated(unit: str, length: int) -> str:
    return (unit * (length // len(unit) + 1))[:length]
