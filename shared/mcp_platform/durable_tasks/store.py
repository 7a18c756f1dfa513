"""The task store port: every router instance and worker sees the same task, nothing lives in memory.

Every state change is conditional on the task still `working`, so a worker's
reply, a cancellation and a conclusion can race and exactly one of them wins.
"""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING, Any, Protocol

import orjson

if TYPE_CHECKING:
    from mcp_platform.durable_tasks.model import TaskRecord, TaskStatus


class BadCursorError(ValueError):
    """A `tasks/list` cursor this store did not issue (or issued to another account)."""


class PayloadTooLargeError(ValueError):
    """A reply or result larger than this store can keep; nothing was written, so the writer can keep an error."""

    def __init__(self, size: int, limit: int) -> None:
        super().__init__(f"{size} bytes of JSON, over the {limit} this task store keeps")
        self.size = size
        self.limit = limit


class TaskStore(Protocol):
    def create(self, task: TaskRecord) -> None:
        """Store a new task (status `working`); durable before it returns, so a poll finds it."""
        ...

    def get(self, task_id: str) -> TaskRecord | None:
        """The task, strongly consistent; None when unknown or past its ttl."""
        ...

    def list(self, account_id: str, limit: int, cursor: str | None = None) -> tuple[list[TaskRecord], str | None]:
        """The account's tasks, newest first, and the cursor of the next page. Raises `BadCursorError`."""
        ...

    def begin(self, task_id: str, message: str, ends_by: float) -> bool:
        """The worker's start: a status message, only while working and if a run ending by `ends_by` (epoch s)
        ends by the deadline.

        False: the task is over, or its event waited in the queue too long for a whole run; it never runs,
        and the router or the sweep fails and refunds it at its deadline, as for a task that never replied.
        """
        ...

    def put_reply(self, task_id: str, reply: dict[str, Any]) -> bool:
        """The worker's raw reply, once, while working. False when cancelled/concluded (the reply is dropped).

        Raises `PayloadTooLargeError`, as `finish` does for its result, when the store cannot keep it.
        """
        ...

    def finish(
        self, task_id: str, status: TaskStatus, result: dict[str, Any] | None, message: str, *, unreplied: bool = False
    ) -> TaskRecord | None:
        """Move a working task to a terminal status; the updated task, or None when another writer won.

        `unreplied`: only while no reply is in (failing a task that never replied must lose to a late reply).
        """
        ...


def encode_cursor(position: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(orjson.dumps(position)).decode()


def decode_cursor(cursor: str, account_id: str) -> dict[str, Any]:
    """The position inside `cursor`, which must belong to `account_id`."""
    try:
        position = orjson.loads(base64.urlsafe_b64decode(cursor.encode()))
    except (ValueError, orjson.JSONDecodeError):
        raise BadCursorError("invalid cursor") from None
    if not isinstance(position, dict) or position.get("account_id") != account_id:
        raise BadCursorError("invalid cursor")
    return position
