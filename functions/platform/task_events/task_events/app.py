"""Lambda entry of the task events function (template: `task_events.app.handler`)."""

from __future__ import annotations

from functools import cache
from typing import Any, ClassVar

from mcp_platform.billing.dynamodb import build_ledger
from mcp_platform.billing.lifecycle import CallBilling
from mcp_platform.durable_tasks.destination import on_failed_event
from mcp_platform.durable_tasks.worker import task_store
from mcp_platform.runtime.entry import lambda_entry
from mcp_platform.runtime.settings import LedgerSettings, TaskSettings


class TaskEventsSettings(TaskSettings, LedgerSettings):
    OPTIONAL_ENV: ClassVar[frozenset[str]] = frozenset({"staging_bucket"})


settings = TaskEventsSettings.from_env()
"""Parsed at import, the cold start: a table missing from the template block fails here."""


@cache
def _calls() -> CallBilling:
    return CallBilling(build_ledger(settings))


def _handle(event: dict[str, Any], _context: Any) -> dict[str, Any]:
    return on_failed_event(event, task_store(settings), _calls())


handler = lambda_entry(_handle)
