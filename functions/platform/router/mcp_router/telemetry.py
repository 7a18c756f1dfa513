"""Per-call CloudWatch metrics (EMF): calls, errors, latency and credits by service and tool."""

from __future__ import annotations

import threading

from aws_lambda_powertools.metrics import MetricUnit

from mcp_platform.runtime.observability import metrics
from mcp_platform.runtime.settings import powertools_switch

_lock = threading.Lock()
"""Powertools keeps metric state per process; one flush per call keeps dimensions from mixing."""
_DISABLED = powertools_switch("POWERTOOLS_METRICS_DISABLED")
"""Checked once: with metrics disabled Powertools still buffers every value, so skip it entirely."""


def record_call(service: str, tool: str, is_error: bool, latency_ms: float, credits: int) -> None:
    if _DISABLED:
        return
    with _lock:
        metrics.add_dimension(name="service", value=service)
        metrics.add_dimension(name="tool", value=tool)
        metrics.add_metric(name="calls", unit=MetricUnit.Count, value=1)
        metrics.add_metric(name="errors", unit=MetricUnit.Count, value=int(is_error))
        metrics.add_metric(name="latency", unit=MetricUnit.Milliseconds, value=latency_ms)
        metrics.add_metric(name="credits", unit=MetricUnit.Count, value=credits)
        metrics.flush_metrics()
