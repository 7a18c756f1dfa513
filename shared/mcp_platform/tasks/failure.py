"""Fail a task that will never reply, and give its reservation back.

Called when the asynchronous invoke failed or aged out (the service function's
on-failure destination, or the local worker thread), when the router could not
start it, and for a task past its deadline. Only the writer that moves the task
out of `working` refunds, so a failure racing a cancellation refunds once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcp_platform.billing.ledger import Charge, IdempotencyKey
from mcp_platform.dispatch import ServiceReply
from mcp_platform.errors import ErrorCode, error_object
from mcp_platform.mcp import tool_result
from mcp_platform.observability import logger
from mcp_platform.tasks.model import TaskStatus

if TYPE_CHECKING:
    from mcp_platform.billing.ledger import Ledger
    from mcp_platform.tasks.model import TaskRecord
    from mcp_platform.tasks.store import TaskStore


def charge_record(charge: Charge | None) -> dict[str, Any] | None:
    """A reservation as the task keeps it."""
    if charge is None:
        return None
    record: dict[str, Any] = {
        "account_id": charge.account_id,
        "entry_id": charge.entry_id,
        "amount": charge.amount,
        "tool": charge.tool,
        "request_id": charge.request_id,
    }
    if charge.idempotency is not None:
        record["idempotency"] = {"key": charge.idempotency.key, "fingerprint": charge.idempotency.fingerprint}
    return record


def charge_of(task: TaskRecord) -> Charge | None:
    record = task.charge
    if record is None:
        return None
    idem = record.get("idempotency")
    return Charge(
        account_id=record["account_id"],
        entry_id=record["entry_id"],
        amount=int(record["amount"]),
        tool=record["tool"],
        request_id=record["request_id"],
        idempotency=IdempotencyKey(**idem) if idem else None,
    )


def unreplied_result(task: TaskRecord, why: str, code: str = ErrorCode.INTERNAL) -> dict[str, Any]:
    """The `CallToolResult` of a task that ended without a reply (failed, cancelled): nothing charged."""
    message = f"{task.tool}: {why}; nothing was charged"
    return tool_result(ServiceReply(structured_content=error_object(message, code, credits_charged=0)))


def fail_task(store: TaskStore, ledger: Ledger, task_id: str, why: str) -> TaskRecord | None:
    """Fail a working task without a reply and refund it; the failed task, or None if it had ended or replied."""
    task = store.get(task_id)
    if task is None or task.reply is not None:
        return None  # gone, or it did reply: concluding that reply is the router's (or the sweep's)
    failed = store.finish(task_id, TaskStatus.FAILED, unreplied_result(task, why), why)
    if failed is None:
        return None
    charge = charge_of(task)
    if charge is not None:
        try:
            ledger.refund(charge, f"task failed: {why}")
        except Exception:
            logger.exception("task refund failed; the sweep will refund it", extra={"task_id": task_id})
    logger.info("task failed", extra={"task_id": task_id, "why": why})
    return failed
