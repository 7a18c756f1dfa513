"""The service side of a task: run the tool, write its reply to the task store.

The router invoked the service asynchronously (`InvocationType=Event`, no
retries) with the task id. The worker first marks the task running — a
conditional write that fails for a task cancelled before it started, which
then never runs — and writes the reply only while the task is still working,
so a cancelled task's late result is dropped. Billing is not the worker's:
the reply is concluded (settled or refunded) by the router or the sweep.
"""

from __future__ import annotations

import time
from functools import cache
from typing import TYPE_CHECKING, Any

from mcp_platform.durable_tasks.dynamodb import build_task_store
from mcp_platform.durable_tasks.failure import too_large_reply
from mcp_platform.durable_tasks.model import TaskStatus
from mcp_platform.durable_tasks.store import PayloadTooLargeError
from mcp_platform.runtime.observability import logger
from mcp_platform.runtime.settings import FunctionSettings, SettingsError, TaskSettings

if TYPE_CHECKING:
    from collections.abc import Callable

    from mcp_platform.durable_tasks.store import TaskStore
    from mcp_platform.protocol.payloads import ServiceReply, ServiceRequest


def task_store(settings: FunctionSettings) -> TaskStore:
    """The container's task store, in the function's TASKS_TABLE (payloads too large for an item in its bucket)."""
    if not isinstance(settings, TaskSettings) or not settings.tasks_table:
        raise SettingsError(f"{type(settings).__name__} sets no TASKS_TABLE: a function running tasks has TaskSettings")
    return _store(settings.tasks_table, settings.staging_bucket)


@cache
def _store(table: str, bucket: str) -> TaskStore:
    return build_task_store(table, bucket)


PROBE_EVERY_S = 5.0
"""A cancelled task is noticed within this long, at one task read per interval at most."""


def cancel_probe(
    store: TaskStore, task_id: str, every_s: float = PROBE_EVERY_S, clock: Callable[[], float] = time.monotonic
) -> Callable[[], bool]:
    """A cheap `cancelled()` for a running task: reads the task at most once per `every_s`, sticky once true."""
    state = {"checked": clock(), "cancelled": False}

    def cancelled() -> bool:
        if not state["cancelled"] and clock() - state["checked"] >= every_s:
            state["checked"] = clock()
            task = store.get(task_id)
            state["cancelled"] = task is None or task.status is not TaskStatus.WORKING
        return bool(state["cancelled"])

    return cancelled


def run_task(
    request: ServiceRequest, run: Callable[[], ServiceReply], store: TaskStore, ends_by: float
) -> dict[str, Any]:
    """Run one task's tool (`run`) and store its reply; the Lambda's return value is informational only.

    `ends_by` (epoch s) is when this worker stops at the latest (its Lambda's remaining time): a task whose
    deadline comes first (its event waited in the queue too long) is not started, so the router and the
    sweep, which fail a task without a reply at its deadline, never fail one still running.
    """
    task_id = request.task_id or ""
    if not store.begin(task_id, f"{request.tool} is running", ends_by):
        logger.info(
            "task not started: no longer working, or too late to end by its deadline", extra={"task_id": task_id}
        )
        return {"task_id": task_id, "ran": False}
    reply = run()
    try:
        stored = store.put_reply(task_id, reply.model_dump(mode="json"))
    except PayloadTooLargeError as refused:
        stored = store.put_reply(task_id, too_large_reply(request.tool, refused).model_dump(mode="json"))
    if not stored:
        logger.info("task reply dropped: cancelled or concluded meanwhile", extra={"task_id": task_id})
    return {"task_id": task_id, "ran": True, "stored": stored}
