"""The on-failure destination of task-capable functions: fail the task its lost event carried, refund it.

Lambda calls the destination when an asynchronous invoke ends in error (the
function raised, timed out or ran out of memory; retries are 0) or the event
aged out before it ran (`MaximumEventAgeInSeconds`). The event carries the
original payload as `requestPayload`, and with it the task id.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcp_platform.durable_tasks.failure import fail_task

if TYPE_CHECKING:
    from mcp_platform.billing.lifecycle import CallBilling
    from mcp_platform.durable_tasks.store import TaskStore

_WHY = {
    "EventAgeExceeded": "the task waited too long in the queue and never ran",
    "RetriesExhausted": "the service failed while running the task",
}


def why_failed(event: dict[str, Any]) -> str:
    condition = str(event.get("requestContext", {}).get("condition", ""))
    why = _WHY.get(condition, "the service failed while running the task")
    error = event.get("responsePayload", {})
    if isinstance(error, dict) and error.get("errorType"):
        why += f" ({error['errorType']})"  # the type only: a message could carry argument values
    return why


def on_failed_event(event: dict[str, Any], store: TaskStore, calls: CallBilling) -> dict[str, Any]:
    payload = event.get("requestPayload") or {}
    task_id = payload.get("task_id") if isinstance(payload, dict) else None
    if not isinstance(task_id, str):
        return {"task_id": None, "failed": False}
    failed = fail_task(store, calls, task_id, why_failed(event))
    return {"task_id": task_id, "failed": failed is not None}
