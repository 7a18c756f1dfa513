"""The benchmarks' one percentile: nearest rank, so a reported p99 is a latency that was measured."""

from __future__ import annotations

import math


def percentile(values: list[float], q: float) -> float:
    """The smallest value with at least `q` of `values` at or below it (0 < q <= 1).

    Examples:
        >>> percentile([4.0, 1.0, 3.0, 2.0], 0.5)
        2.0
        >>> percentile([float(v) for v in range(1, 101)], 0.99)
        99.0
    """
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]
