"""The service side of a task: the cancellation probe a long tool checks between its steps."""

from __future__ import annotations

from mcp_platform.durable_tasks.memory import MemoryTaskStore
from mcp_platform.durable_tasks.model import TaskRecord, TaskStatus
from mcp_platform.durable_tasks.worker import cancel_probe
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


def test_a_worker_that_cannot_end_by_the_deadline_does_not_start() -> None:
    from mcp_platform.durable_tasks.worker import run_task
    from mcp_platform.protocol.payloads import ServiceReply, ServiceRequest

    store, record = MemoryTaskStore(), task()
    store.create(record)
    request = ServiceRequest(
        tool=record.tool, arguments={}, account_id="acct_a", request_id="r", task_id=record.task_id
    )
    ran: list[bool] = []

    def run() -> ServiceReply:
        ran.append(True)
        return ServiceReply(structured_content={"ok": True})

    assert run_task(request, run, store, ends_by=record.deadline + 30)["ran"] is False
    assert ran == []
    assert run_task(request, run, store, ends_by=record.deadline - 30)["stored"] is True


def test_the_resolver_settles_a_task_whose_reply_lands_while_it_fails_it() -> None:
    from mcp_platform.billing.lifecycle import CallRecord, CallState, SweepDecision
    from mcp_platform.durable_tasks.sweep import task_resolver

    store, record = MemoryTaskStore(), task()
    store.create(record)
    stale = store.get(record.task_id)  # what the resolver read: working, no reply yet
    store.put_reply(record.task_id, {"structured_content": {"ok": True}})  # the worker's reply lands
    reads = iter([stale])
    real_get = store.get
    store.get = lambda task_id: next(reads, None) or real_get(task_id)  # type: ignore[method-assign]
    call = CallRecord(
        call_id="c", account_id="acct_a", tool=record.tool, amount=60, request_id=record.task_id,
        state=CallState.RESERVED, in_progress_until=0.0, entry_id="e1", origin="task",
    )  # fmt: skip
    assert task_resolver(store)(call) is SweepDecision.SETTLE
    found = real_get(record.task_id)
    assert found is not None and found.status is TaskStatus.WORKING and found.reply is not None
