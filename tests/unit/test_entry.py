"""The entry pipeline every Lambda's handler goes through (`mcp_platform.runtime.entry`)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from aws_lambda_powertools.metrics import MetricUnit

from localdev.context import LambdaContext
from mcp_platform.runtime.entry import lambda_entry
from mcp_platform.runtime.observability import log_context, logger, metrics

if TYPE_CHECKING:
    import pytest


def _keys(_event: Any, _context: Any) -> dict[str, Any]:
    return {**logger.get_current_keys(), **logger.thread_safe_get_current_keys()}


def test_a_function_owning_its_process_logs_the_invocation_and_the_correlation_id() -> None:
    handler = lambda_entry(_keys, correlation_id_path="requestContext.requestId")
    try:
        keys = handler({"requestContext": {"requestId": "api-1"}}, LambdaContext("svc-router"))
    finally:
        logger.clear_state()  # the process-wide keys it set: no other test's lines carry them
    assert keys["function_name"] == "svc-router" and keys["correlation_id"] == "api-1"
    assert "cold_start" in keys


def test_a_handler_sharing_its_process_keeps_its_keys_in_its_thread_and_gives_the_callers_back() -> None:
    handler = lambda_entry(_keys, shares_process=True)
    with log_context(request_id="router-call"):
        first = handler({}, LambdaContext("svc-hello"))
        second = handler({}, LambdaContext("svc-hello"))
        assert logger.thread_safe_get_current_keys() == {"request_id": "router-call"}
    assert first["function_name"] == "svc-hello" and "request_id" not in first
    assert (first["cold_start"], second["cold_start"]) == (True, False)


def test_flush_metrics_publishes_what_the_handler_added(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("POWERTOOLS_METRICS_DISABLED", raising=False)

    def sweep(_event: Any, _context: Any) -> str:
        metrics.add_metric(name="swept", unit=MetricUnit.Count, value=2)
        return "done"

    capsys.readouterr()
    assert lambda_entry(sweep, flush_metrics=True)({}, LambdaContext("svc-reconcile")) == "done"
    emf = [json.loads(line) for line in capsys.readouterr().out.splitlines() if '"_aws"' in line]
    assert [m["swept"] for m in emf if "swept" in m] == [[2.0]]
