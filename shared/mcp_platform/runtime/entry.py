"""The one entry pipeline of every Lambda: log context, tracing and (where asked) the metrics flush.

Every handler of the template is `lambda_entry(handle, ...)` over a plain `handle(event, context)`:
the router and the authorization server (behind Mangum), each service (`ServiceApp`), the task
events and the reconciliation sweep. What each step is:

- log context: the invocation's keys (cold start, function name, memory, ARN, request id) on
  every line of this invocation, and on no line of another;
- tracing: X-Ray capture of the invocation, or nothing when tracing is disabled (`traced_handler`);
- metrics: with `flush_metrics`, what the handler added is flushed as one EMF record when it returns
  (the router flushes per call instead, `mcp_router.telemetry`).

Imports nothing beyond `observability`, which every Lambda loads anyway (the router's cold start).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mcp_platform.runtime.observability import invocation_keys, log_context, logger, metrics, traced_handler

Handler = Callable[[Any, Any], Any]
"""A Lambda handler: `(event, context) -> result`."""


def lambda_entry(
    handle: Handler,
    *,
    correlation_id_path: str | None = None,
    flush_metrics: bool = False,
    shares_process: bool = False,
) -> Handler:
    """`handle` as the template's handler: log context, then tracing, then (with `flush_metrics`) the flush.

    `correlation_id_path` names the event's request id (API Gateway: `requestContext.requestId`).
    `shares_process`: the handler may run in the process of another (`make dev` runs every service
    inside the router's): its keys are then this thread's only (`log_context`), and the caller's
    come back when it returns; otherwise Powertools' `inject_lambda_context` sets them for the
    process, as a Lambda container running one invocation at a time can.

    Examples:
        >>> handler = lambda_entry(_handle, correlation_id_path="requestContext.requestId")
        >>> handler = lambda_entry(_sweep, flush_metrics=True)
    """
    traced = traced_handler(metrics.log_metrics(handle) if flush_metrics else handle)
    if shares_process:
        return _thread_keys(traced)
    entry: Handler = logger.inject_lambda_context(traced, correlation_id_path=correlation_id_path, clear_state=True)
    return entry


def _thread_keys(handle: Handler) -> Handler:
    """`handle` with the invocation's keys in this thread's log context, for this invocation only."""
    cold = [True]

    def entry(event: Any, context: Any) -> Any:
        cold_start, cold[0] = cold[0], False
        with log_context(**invocation_keys(context, cold_start=cold_start)):
            return handle(event, context)

    return entry
