"""How the reconciliation sweep decides an overdue task reservation (`Calls.sweep(resolver)`).

A task's call is reserved until the task's deadline (its longest run plus a
margin). Past it, the sweep asks the task: a task that never reported back is
failed here and refunded; a successful reply (concluded or not) is settled; an
error, a failure or a cancellation is refunded. Calls that are not tasks keep
the sweep's default (refund).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcp_platform.billing.lifecycle import SweepDecision
from mcp_platform.durable_tasks.failure import mark_failed
from mcp_platform.durable_tasks.model import TaskStatus

if TYPE_CHECKING:
    from mcp_platform.billing.lifecycle import CallRecord, Resolver
    from mcp_platform.durable_tasks.store import TaskStore

NEVER_REPORTED = "the task did not report back in time"


def task_resolver(store: TaskStore) -> Resolver:
    def resolve(record: CallRecord) -> SweepDecision:
        if record.origin != "task":
            return SweepDecision.REFUND
        task = store.get(record.request_id)  # a task's call is named by its task id
        if task is None or task.account_id != record.account_id:
            return SweepDecision.REFUND
        if task.status is TaskStatus.WORKING and task.reply is None:
            if mark_failed(store, task.task_id, NEVER_REPORTED) is not None:
                return SweepDecision.REFUND
            task = store.get(record.request_id)  # a reply (or another ending) landed meanwhile: decide by it
            if task is None:
                return SweepDecision.REFUND
        if task.status is TaskStatus.COMPLETED and task.result is not None:
            charged = task.result.get("structuredContent", {}).get("credits_charged", 0)
            return SweepDecision.SETTLE if charged else SweepDecision.REFUND
        if task.status is TaskStatus.WORKING and task.reply is not None:
            content = task.reply.get("structured_content", {})
            free = content.get("is_error") is True or task.reply.get("waive_charge") is True
            return SweepDecision.REFUND if free else SweepDecision.SETTLE
        return SweepDecision.REFUND  # failed or cancelled

    return resolve
