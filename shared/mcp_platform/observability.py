"""Powertools logger, metrics and tracer, one instance each per Lambda container.

The service name comes from `POWERTOOLS_SERVICE_NAME` (set per function by the
template). Nothing here logs argument values or API keys: callers log ids,
tool names, codes and timings only.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import cache
from typing import Any

from aws_lambda_powertools import Logger, Metrics, Tracer

logger = Logger()
metrics = Metrics(namespace="McpPlatform")

_TRACING = os.environ.get("POWERTOOLS_TRACE_DISABLED", "").lower() not in ("1", "true")


@cache
def tracer() -> Tracer:
    """The container's tracer; built on first use because it imports the X-Ray SDK (~150 ms)."""
    return Tracer()


def traced_handler[Handler: Callable[..., Any]](handler: Handler) -> Handler:
    """X-Ray capture of a Lambda handler, or the handler itself when tracing is disabled.

    A disabled Powertools tracer still imports the X-Ray SDK and builds dummy
    segments on every call (random ids included), which cost ~5 % of a local call.
    """
    return tracer().capture_lambda_handler(handler, capture_response=False) if _TRACING else handler
