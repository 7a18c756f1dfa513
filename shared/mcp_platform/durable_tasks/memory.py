"""Task store in memory, with the DynamoDB store's semantics (tests and the router benchmark)."""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING, Any

from mcp_platform.durable_tasks.model import TaskStatus
from mcp_platform.durable_tasks.store import decode_cursor, encode_cursor

if TYPE_CHECKING:
    from collections.abc import Callable

    from mcp_platform.durable_tasks.model import TaskRecord


class MemoryTaskStore:
    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._tasks: dict[str, TaskRecord] = {}
        self._lock = threading.Lock()
        self._now = clock

    def create(self, task: TaskRecord) -> None:
        with self._lock:
            if task.task_id in self._tasks:
                raise ValueError(f"task {task.task_id} exists")
            self._tasks[task.task_id] = task

    def get(self, task_id: str) -> TaskRecord | None:
        task = self._tasks.get(task_id)
        return task if task is not None and task.expires_at > self._now() else None

    def list(self, account_id: str, limit: int, cursor: str | None = None) -> tuple[list[TaskRecord], str | None]:
        start = decode_cursor(cursor, account_id) if cursor else None
        mine = sorted(
            (t for t in self._tasks.values() if t.account_id == account_id and t.expires_at > self._now()),
            key=lambda t: (t.created_at, t.task_id),
            reverse=True,
        )
        if start is not None:
            mine = [t for t in mine if (t.created_at, t.task_id) < (start["created_at"], start["task_id"])]
        page = mine[:limit]
        more = len(mine) > limit
        last = page[-1] if page else None
        next_cursor = (
            encode_cursor({"account_id": account_id, "created_at": last.created_at, "task_id": last.task_id})
            if more and last
            else None
        )
        return page, next_cursor

    def begin(self, task_id: str, message: str, ends_by: float) -> bool:
        def change(task: TaskRecord) -> TaskRecord | None:
            return task.with_changes(status_message=message) if ends_by <= task.deadline else None

        return self._update_working(task_id, change) is not None

    def put_reply(self, task_id: str, reply: dict[str, Any]) -> bool:
        def change(task: TaskRecord) -> TaskRecord | None:
            return None if task.reply is not None else task.with_changes(reply=reply)

        return self._update_working(task_id, change) is not None

    def finish(
        self, task_id: str, status: TaskStatus, result: dict[str, Any] | None, message: str, *, unreplied: bool = False
    ) -> TaskRecord | None:
        def change(task: TaskRecord) -> TaskRecord | None:
            if unreplied and task.reply is not None:
                return None
            return task.with_changes(status=status, result=result, status_message=message)

        return self._update_working(task_id, change)

    def _update_working(self, task_id: str, change: Callable[[TaskRecord], TaskRecord | None]) -> TaskRecord | None:
        with self._lock:
            task = self._tasks.get(task_id)
            if task is None or task.status is not TaskStatus.WORKING:
                return None
            updated = change(task)
            if updated is None:
                return None
            updated = updated.with_changes(updated_at=self._now())
            self._tasks[task_id] = updated
            return updated
