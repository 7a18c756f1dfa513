"""Powertools logger, metrics and tracer, one instance each per Lambda container.

The service name comes from `POWERTOOLS_SERVICE_NAME` (set per function by the
template). Nothing here logs argument values or API keys: callers log ids,
tool names, codes and timings only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any, cast

from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.logging.lambda_context import build_lambda_context_model

from mcp_platform.runtime.settings import powertools_switch

logger = Logger()
metrics = Metrics(namespace="McpPlatform")

_TRACING = not powertools_switch("POWERTOOLS_TRACE_DISABLED")


@cache
def tracer() -> Tracer:
    """The container's tracer; built on first use because it imports the X-Ray SDK (~150 ms)."""
    return Tracer()


def traced_handler[Handler: Callable[..., Any]](handler: Handler) -> Handler:
    """X-Ray capture of a Lambda handler, or the handler itself when tracing is disabled.

    A disabled Powertools tracer still imports the X-Ray SDK and builds dummy
    segments on every call (random ids included), which cost ~5 % of a local call.
    """
    return cast("Handler", tracer().capture_lambda_handler(handler, capture_response=False)) if _TRACING else handler


@contextmanager
def log_context(**keys: object) -> Iterator[None]:
    """Keys that every log line of one request carries, and no line of another.

    Powertools' `append_keys` and `inject_lambda_context(clear_state=True)` change one
    process-wide context: right for one call at a time in a Lambda container, wrong in `make dev`,
    where the router and every service share a process and its threads, so a router line after a
    service call carried that service's function, tool and request id. These keys live in a
    context variable (Powertools' thread-safe keys): they replace the caller's for the block, only
    this thread sees them, and the caller's come back on exit. Add more with
    `logger.thread_safe_append_keys`.

    Examples:
        >>> with log_context(tool="hello_ping", request_id="r1"):
        ...     logger.info("tool error")  # names hello_ping and r1; the next request's lines will not
    """
    outer = dict(logger.thread_safe_get_current_keys())
    logger.thread_safe_clear_keys()
    logger.thread_safe_append_keys(**keys)
    try:
        yield
    finally:
        logger.thread_safe_clear_keys()
        logger.thread_safe_append_keys(**outer)


def invocation_keys(context: Any, *, cold_start: bool) -> dict[str, object]:
    """What `inject_lambda_context` logs of an invocation: cold start, function name, memory, ARN, request id."""
    if context is None:
        return {"cold_start": cold_start}
    return {"cold_start": cold_start, **vars(build_lambda_context_model(context))}
