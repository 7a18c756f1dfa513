"""Powertools logger, metrics and tracer, one instance each per Lambda container.

The service name comes from `POWERTOOLS_SERVICE_NAME` (set per function by the
template). Nothing here logs argument values or API keys: callers log ids,
tool names, codes and timings only.
"""

from __future__ import annotations

from aws_lambda_powertools import Logger, Metrics, Tracer

logger = Logger()
metrics = Metrics(namespace="McpPlatform")
tracer = Tracer()
