"""Durable tasks on the router: create (reserve, store, invoke asynchronously), find, conclude, cancel.

Nothing lives in a router's memory: every answer comes from the task store, so
any instance answers any poll. A task's reply is billed when it is concluded:
by whichever router first sees the reply (a poll, a list), or by the sweep for
a task nobody polls. The conclusion is a conditional write, so exactly one
writer ends a task and only that writer settles or refunds its reservation.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from mcp_platform.billing.lifecycle import CallState, Replay
from mcp_platform.durable_tasks.failure import (
    call_of,
    charge_record,
    fail_task,
    refund_task,
    too_large_reply,
    unreplied_result,
)
from mcp_platform.durable_tasks.model import TaskRecord, TaskStatus, new_task_id
from mcp_platform.durable_tasks.store import PayloadTooLargeError
from mcp_platform.durable_tasks.sweep import NEVER_REPORTED
from mcp_platform.protocol.errors import ErrorCode, error_object
from mcp_platform.protocol.jsonrpc import INVALID_PARAMS, JsonRpcError
from mcp_platform.protocol.mcp import tool_result
from mcp_platform.protocol.payloads import ServiceReply
from mcp_platform.runtime.observability import logger
from mcp_router.tool_calls import replayed, with_credits

if TYPE_CHECKING:
    from collections.abc import Callable

    from mcp_platform.billing.lifecycle import CallBilling, CallRecord
    from mcp_platform.catalogue.registry import ToolSpec
    from mcp_platform.durable_tasks.store import TaskStore
    from mcp_router.auth import Principal
    from mcp_router.context import RequestContext
    from mcp_router.invoker import TaskStarter
    from mcp_router.tool_calls import Reserved, ToolCaller

NOT_FOUND = "Failed to retrieve task: Task not found"
DEADLINE_MARGIN_S = 60.0
"""Beyond the longest queue wait and run (`longest_s`), time to write the reply or reach the on-failure
destination. The worker starts only if its own run ends by the deadline (`run_task`), so a task without a
reply at its deadline will never have one: the router and the sweep then fail it and refund."""
STATUS_MESSAGE_LIMIT = 4_000
"""Characters of a tool's error text kept as its task's status message (the result keeps all of it): the message
shares the task's DynamoDB item, which stops at 400 KB, and a tool's error text has no bound of its own."""


class TaskCalls:
    def __init__(
        self,
        caller: ToolCaller,
        calls: CallBilling,
        store: TaskStore,
        starter: TaskStarter,
        longest_s: float,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._caller = caller
        self._calls = calls
        self._store = store
        self._starter = starter
        self._timeout = longest_s
        self._now = clock
        self._sleep = sleep

    def create(self, spec: ToolSpec, ctx: RequestContext, arguments: Any, ttl_ms: int) -> TaskRecord | dict[str, Any]:
        """A working task, or the `CallToolResult` that ended the call before it became one (never charged)."""
        now = self._now()
        task_id = new_task_id()
        deadline = now + self._timeout + DEADLINE_MARGIN_S
        reserved = self._caller.reserve(spec, ctx, arguments, deadline=deadline, origin="task", request_id=task_id)
        if isinstance(reserved, Replay):
            # The same Idempotency-Key, tool and arguments: the task it created, running or done, not a new one.
            if reserved.result is None or "task_id" not in reserved.result:
                return tool_result(replayed(reserved))  # the key's first use was a plain call: its result
            previous = self._store.get(str(reserved.result["task_id"]))
            if previous and previous.account_id == ctx.principal.account_id:
                return self.conclude(previous)
            return self._unstarted(None, f"{spec.name}: the task this Idempotency-Key started is gone; send a new key")
        if isinstance(reserved, ServiceReply):
            return tool_result(reserved)
        task = TaskRecord(
            task_id=task_id,
            account_id=ctx.principal.account_id,
            tool=spec.name,
            service=spec.service,
            status=TaskStatus.WORKING,
            status_message=f"{spec.name} is queued",
            created_at=now,
            updated_at=now,
            ttl_ms=ttl_ms,
            deadline=deadline,
            charge=charge_record(reserved.record),
            request_id=ctx.request_id,
        )
        try:
            self._store.create(task)
        except Exception:
            logger.exception("task store unavailable", extra={"tool": spec.name})
            return self._unstarted(reserved, f"{spec.name}: the task store is unavailable right now; retry shortly")
        try:
            self._starter.start(spec.service, reserved.request.model_copy(update={"task_id": task.task_id}))
        except Exception as exc:
            logger.warning("task not started", extra={"task_id": task.task_id, "why": str(exc)})
            failed = fail_task(self._store, self._calls, task.task_id, "the service could not be started")
            return failed.result if failed is not None and failed.result else self._unstarted(reserved, str(exc))
        logger.info("task created", extra={"task_id": task.task_id, "tool": spec.name, "account_id": task.account_id})
        return task

    def find(self, principal: Principal, task_id: Any) -> TaskRecord:
        """The caller's task, concluded if its reply is in; another account's id is answered as unknown."""
        task = self._store.get(task_id) if isinstance(task_id, str) else None
        if task is None or task.account_id != principal.account_id:
            raise JsonRpcError(INVALID_PARAMS, NOT_FOUND)
        return self.conclude(task)

    def list(self, principal: Principal, cursor: Any, limit: int) -> tuple[list[TaskRecord], str | None]:
        if cursor is not None and not isinstance(cursor, str):
            raise JsonRpcError(INVALID_PARAMS, "cursor must be a string")
        try:
            records, next_cursor = self._store.list(principal.account_id, limit, cursor)
        except ValueError:
            raise JsonRpcError(INVALID_PARAMS, "Invalid cursor") from None
        return [self.conclude(task) for task in records], next_cursor

    def wait(self, principal: Principal, task_id: Any, seconds: float, poll_s: float = 1.0) -> TaskRecord:
        """The task once terminal, or as it is when `seconds` run out (a router cannot block longer)."""
        task = self.find(principal, task_id)
        give_up = self._now() + seconds
        while not task.status.terminal and self._now() + poll_s < give_up:
            self._sleep(poll_s)
            task = self.find(principal, task_id)
        return task

    def cancel(self, principal: Principal, task_id: Any) -> TaskRecord:
        """Cancel a working task and refund it. A terminal task cannot be cancelled (-32602)."""
        task = self.find(principal, task_id)
        if not task.status.terminal:
            result = unreplied_result(task, "the task was cancelled", ErrorCode.CANCELLED)
            cancelled = self._store.finish(task.task_id, TaskStatus.CANCELLED, result, "cancelled by request")
            if cancelled is not None:
                refund_task(self._calls, task, "task cancelled")
                logger.info("task cancelled", extra={"task_id": task.task_id})
                return cancelled
            task = self.find(principal, task_id)  # it ended meanwhile
        raise JsonRpcError(INVALID_PARAMS, f"Cannot cancel task: already in terminal status '{task.status}'")

    def conclude(self, task: TaskRecord) -> TaskRecord:
        """End a working task whose reply is in (billed) or whose deadline passed (failed, refunded)."""
        if task.status.terminal:
            return task
        if task.reply is None:
            if self._now() < task.deadline:
                return task
            failed = fail_task(self._store, self._calls, task.task_id, NEVER_REPORTED)
            return failed or self._reread(task)
        reply = ServiceReply.model_validate(task.reply)
        try:
            return self._conclude_reply(task, reply)
        except PayloadTooLargeError as refused:
            # A store without a blob store (no STAGING_BUCKET) keeps no result this large, and wrote nothing.
            return self._conclude_reply(task, too_large_reply(task.tool, refused))

    def _conclude_reply(self, task: TaskRecord, reply: ServiceReply) -> TaskRecord:
        """Bill `reply` and end the task with its result; only the writer that ends it settles or refunds."""
        record = call_of(task)
        free = record is None or reply.is_error or reply.waive_charge
        ended = None if record is None or free else self._ended_by_sweep(record)
        if ended is CallState.REFUNDED:
            free, record = True, None  # the sweep gave the credits back first: the result is free
        # The result is final before the call ends: a settle lost here is the sweep's (task_resolver) to redo.
        billed = (
            with_credits(reply, 0)
            if free or record is None
            else with_credits(reply, record.amount, record.balance_after)
        )
        message = _status_message(str(billed.structured_content.get("error", ""))) if billed.is_error else "completed"
        done = self._store.finish(task.task_id, TaskStatus.COMPLETED, tool_result(billed), message)
        if done is None:
            return self._reread(task)
        if record is not None and free:
            refund_task(self._calls, task, "error result" if reply.is_error else "waived by the service")
        elif record is not None and ended is None:
            self._settle(record, task.task_id)
        logger.info("task completed", extra={"task_id": task.task_id, "is_error": billed.is_error})
        return done

    def _ended_by_sweep(self, record: CallRecord) -> CallState | None:
        """Past the call's deadline the sweep may have ended it: how (one read), or None while it is ours."""
        if self._now() < record.in_progress_until:
            return None
        current = self._calls.ledger.get_call(record.call_id)
        if current is None or current.attempt != record.attempt:
            return CallState.REFUNDED
        return None if current.state is CallState.RESERVED else current.state

    def _settle(self, record: CallRecord, task_id: str) -> None:
        try:
            # The task id as the stored result: an Idempotency-Key retry of the creation replays the handle.
            self._calls.settle(record, {"task_id": task_id})
        except Exception:
            logger.exception("task settle failed; the sweep settles it", extra={"task_id": task_id})

    def _reread(self, task: TaskRecord) -> TaskRecord:
        return self._store.get(task.task_id) or task

    def _unstarted(self, reserved: Reserved | None, why: str) -> dict[str, Any]:
        """The error result of a task that was never created; its reservation (if any) goes back."""
        if reserved is not None and reserved.record is not None:
            self._caller.refund(reserved.record, "task not started")
        message = f"{why}; nothing was charged"
        content = error_object(message, ErrorCode.UPSTREAM_UNAVAILABLE, credits_charged=0)
        return tool_result(ServiceReply(structured_content=content))


def _status_message(error: str) -> str:
    """`error` within STATUS_MESSAGE_LIMIT characters, a cut one ending in "…"."""
    if len(error) <= STATUS_MESSAGE_LIMIT:
        return error
    return error[: STATUS_MESSAGE_LIMIT - 1].rstrip() + "…"
