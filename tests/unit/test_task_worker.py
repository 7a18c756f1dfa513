"""The service side of a task: the cancellation probe a long tool checks between its steps."""

from __future__ import annotations

from mcp_platform.tasks.memory import MemoryTaskStore
from mcp_platform.tasks.model import TaskRecord, TaskStatus
from mcp_platform.tasks.worker import cancel_probe
from tests.integration.test_task_store import task


class CountingStore(MemoryTaskStore):
    def __init__(self) -> None:
        super().__init__()
        self.reads = 0

    def get(self, task_id: str) -> TaskRecord | None:
        self.reads += 1
        return super().get(task_id)


def test_the_probe_reads_the_task_at_most_once_per_interval_and_stays_cancelled() -> None:
    store, now = CountingStore(), [0.0]
    record = task()
    store.create(record)
    cancelled = cancel_probe(store, record.task_id, every_s=5, clock=lambda: now[0])
    assert cancelled() is False and store.reads == 0, "no read before the first interval"
    now[0] = 5
    assert cancelled() is False and store.reads == 1
    store.finish(record.task_id, TaskStatus.CANCELLED, None, "cancelled by request")
    now[0] = 7
    assert cancelled() is False and store.reads == 1, "still within the interval"
    now[0] = 10
    assert cancelled() is True and store.reads == 2
    now[0] = 100
    assert cancelled() is True and store.reads == 2, "once cancelled, no more reads"
