"""Lambda entry of the reconciliation sweep (template: `mcp_reconcile.app.handler`, on a schedule).

Ends every billed call still `reserved` after its deadline and reverses charges
that were taken but never recorded (`Calls.sweep`); each fix is one conditional
write keyed by the charge, so overlapping runs and `mcp-admin reconcile` can
never refund twice. Returns (and logs) what it fixed.
"""

from __future__ import annotations

from typing import Any, ClassVar

from aws_lambda_powertools.metrics import MetricUnit

from mcp_platform.billing.dynamodb import build_ledger
from mcp_platform.billing.lifecycle import CallBilling
from mcp_platform.durable_tasks.sweep import task_resolver
from mcp_platform.durable_tasks.worker import task_store
from mcp_platform.runtime.entry import lambda_entry
from mcp_platform.runtime.observability import logger, metrics
from mcp_platform.runtime.settings import LedgerSettings, TaskSettings


class ReconcileSettings(TaskSettings, LedgerSettings):
    OPTIONAL_ENV: ClassVar[frozenset[str]] = frozenset({"tasks_table", "staging_bucket"})
    """Without TASKS_TABLE (durable tasks) every overdue call is refunded; with it, an overdue task's call
    is decided by its task."""


settings = ReconcileSettings.from_env()
"""Parsed at import, the cold start: a table missing from the template block fails here."""


def _sweep(_event: dict[str, Any], _context: Any) -> dict[str, Any]:
    ledger = build_ledger(settings)
    # A task's reservation is decided by its task (failed and refunded, or settled); other calls are refunded.
    resolver = task_resolver(task_store(settings)) if settings.tasks_table else None
    report = CallBilling(ledger).sweep(resolver).to_wire()
    fixed = len(report["reversed"]) + len(report["refunded"]) + len(report["settled"])
    (logger.warning if fixed or report["failures"] else logger.info)("reconciliation sweep", extra=report)
    # What ReconcileAlarm watches: anything fixed means a router died mid-call or a refund failed.
    metrics.add_metric(name="reconciled_calls", unit=MetricUnit.Count, value=fixed)
    metrics.add_metric(name="reconciled_credits", unit=MetricUnit.Count, value=report["credits_returned"])
    # Records this run could not decide (each logged with its traceback); the next run tries them again.
    metrics.add_metric(name="reconcile_failures", unit=MetricUnit.Count, value=report["failures"])
    return report


handler = lambda_entry(_sweep, flush_metrics=True)
