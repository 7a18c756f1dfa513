"""A task as the platform stores it, independent of either protocol era's wire shape.

One record per task-augmented `tools/call`. The router creates it (status
`working`) after reserving the price; the service's worker writes the raw
`reply`; whoever next looks at the task (a router answering a poll, the
on-failure handler, the reconciliation sweep) concludes it: bills the reply
and moves the task to a terminal status, exactly once (a conditional write).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Literal

TaskSupport = Literal["forbidden", "optional", "required"]
"""A tool's `execution.taskSupport` (2025-11-25); the 2026-07-28 extension lets the server decide."""

DEFAULT_TTL_MS = 3_600_000
"""How long a task and its result are kept when the client does not ask (1 h)."""
MIN_TTL_MS = 60_000
MAX_TTL_MS = 86_400_000
"""A day: the staging bucket's lifecycle rule (large results) keeps objects no longer."""
POLL_INTERVAL_MS = 2_000
TASK_ID_PREFIX = "task_"


class TaskStatus(StrEnum):
    WORKING = "working"
    INPUT_REQUIRED = "input_required"
    COMPLETED = "completed"
    FAILED = "failed"
    """The tool never produced a result (crashed, timed out, its event was lost); never charged."""
    CANCELLED = "cancelled"

    @property
    def terminal(self) -> bool:
        return self in (TaskStatus.COMPLETED, TaskStatus.FAILED, TaskStatus.CANCELLED)


def new_task_id() -> str:
    """Unguessable (192 random bits): an id alone never reveals another account's task."""
    return TASK_ID_PREFIX + secrets.token_urlsafe(24)


def clamp_ttl_ms(requested: Any) -> int:
    """The client's requested ttl (ms) within [MIN_TTL_MS, MAX_TTL_MS]; the default when absent or invalid."""
    if isinstance(requested, bool) or not isinstance(requested, int | float):
        return DEFAULT_TTL_MS
    return int(min(MAX_TTL_MS, max(MIN_TTL_MS, requested)))


def iso(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class TaskRecord:
    task_id: str
    account_id: str
    tool: str
    service: str
    status: TaskStatus
    created_at: float
    """Epoch seconds."""
    updated_at: float
    ttl_ms: int
    deadline: float
    """Epoch seconds by which the worker must have replied; later, the task fails and is refunded."""
    charge: dict[str, Any] | None = None
    """The reservation (the call record of the billing lifecycle), None for a free tool."""
    status_message: str = ""
    poll_interval_ms: int = POLL_INTERVAL_MS
    reply: dict[str, Any] | None = None
    """The service's raw `ServiceReply`, written by the worker; billed when the task is concluded."""
    result: dict[str, Any] | None = None
    """The final `CallToolResult` (billing fields included) once terminal."""
    request_id: str = ""

    @property
    def expires_at(self) -> int:
        """Epoch seconds after which the store may delete the task (DynamoDB TTL attribute)."""
        return int(self.created_at + self.ttl_ms / 1000)

    def with_changes(self, **changes: Any) -> TaskRecord:
        return replace(self, **changes)
