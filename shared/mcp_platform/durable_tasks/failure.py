"""Fail a task that will never reply, and end its reservation through the call lifecycle.

Called when the asynchronous invoke failed or aged out (the service function's
on-failure destination, or the local worker thread), when the router could not
start it, and for a task past its deadline. Only the writer that moves the task
out of `working` refunds, and the lifecycle refunds a call at most once, so a
failure racing a cancellation or the sweep gives the credits back once.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from mcp_platform.billing.lifecycle import CallRecord, CallState
from mcp_platform.durable_tasks.model import TaskStatus
from mcp_platform.protocol.errors import ErrorCode, error_object
from mcp_platform.protocol.mcp import tool_result
from mcp_platform.protocol.payloads import ServiceReply
from mcp_platform.runtime.observability import logger
from mcp_platform.web.errors import WebErrorCode

if TYPE_CHECKING:
    from mcp_platform.billing.lifecycle import CallBilling
    from mcp_platform.durable_tasks.model import TaskRecord
    from mcp_platform.durable_tasks.store import PayloadTooLargeError, TaskStore

_KEPT = ("call_id", "account_id", "tool", "amount", "request_id", "in_progress_until", "attempt", "entry_id")
_KEPT_OPTIONAL = ("balance_after", "fingerprint", "origin")


def charge_record(record: CallRecord | None) -> dict[str, Any] | None:
    """The reservation as the task keeps it: enough to settle or refund it without reading the call again."""
    if record is None:
        return None
    fields = asdict(record)
    return {name: fields[name] for name in (*_KEPT, *_KEPT_OPTIONAL)}


def call_of(task: TaskRecord) -> CallRecord | None:
    """The task's call record as reserved (state `reserved`, the attempt it was opened with)."""
    if task.charge is None:
        return None
    return CallRecord(state=CallState.RESERVED, **task.charge)


def unreplied_result(task: TaskRecord, why: str, code: str = ErrorCode.INTERNAL) -> dict[str, Any]:
    """The `CallToolResult` of a task that ended without a reply (failed, cancelled): nothing charged."""
    message = f"{task.tool}: {why}; nothing was charged"
    return tool_result(ServiceReply(structured_content=error_object(message, code, credits_charged=0)))


def too_large_reply(tool: str, refused: PayloadTooLargeError) -> ServiceReply:
    """The error reply a task keeps in place of a reply or result its store refused: free, as every error is."""
    logger.warning(
        "task payload over the item size and no blob store: set STAGING_BUCKET",
        extra={"tool": tool, "bytes": refused.size},
    )
    message = (
        f"{tool}: the result is too large to keep for a task ({refused.size:,} bytes of JSON; this deployment "
        f"keeps {refused.limit:,}); nothing was charged. Ask for a smaller result, or call {tool} without a task"
    )
    return ServiceReply(structured_content=error_object(message, WebErrorCode.TOO_LARGE, credits_charged=0))


def refund_task(calls: CallBilling, task: TaskRecord, reason: str) -> None:
    """End the task's reservation uncharged; a failure here is left to the sweep (at the call's deadline)."""
    record = call_of(task)
    if record is None:
        return
    try:
        calls.refund(record, reason)
    except Exception:
        logger.exception("task refund failed; the sweep refunds it", extra={"task_id": task.task_id})


def mark_failed(store: TaskStore, task_id: str, why: str) -> TaskRecord | None:
    """Fail a working task without a reply; the failed task, or None if it had ended or replied."""
    task = store.get(task_id)
    if task is None or task.reply is not None:
        return None  # gone, or it did reply: concluding that reply is the router's (or the sweep's)
    failed = store.finish(task_id, TaskStatus.FAILED, unreplied_result(task, why), why, unreplied=True)
    if failed is not None:
        logger.info("task failed", extra={"task_id": task_id, "why": why})
    return failed


def fail_task(store: TaskStore, calls: CallBilling, task_id: str, why: str) -> TaskRecord | None:
    """`mark_failed`, and refund the reservation when this call is the one that failed it."""
    failed = mark_failed(store, task_id, why)
    if failed is not None:
        refund_task(calls, failed, f"task failed: {why}")
    return failed
