"""One contract, two adapters: the in-memory task store and the DynamoDB one (moto) behave alike."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import boto3
import pytest

from mcp_platform.durable_tasks.dynamodb import INLINE_LIMIT, DynamoTaskStore, S3Blobs
from mcp_platform.durable_tasks.memory import MemoryTaskStore
from mcp_platform.durable_tasks.model import TaskRecord, TaskStatus, new_task_id
from mcp_platform.durable_tasks.store import BadCursorError, PayloadTooLargeError

if TYPE_CHECKING:
    from collections.abc import Iterator

    from mcp_platform.durable_tasks.store import TaskStore

NOW = 1_800_000_000.0


class Clock:
    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture(params=["memory", "dynamodb"])
def store(request: pytest.FixtureRequest, clock: Clock) -> Iterator[TaskStore]:
    if request.param == "memory":
        yield MemoryTaskStore(clock)
        return
    request.getfixturevalue("aws")
    s3 = boto3.client("s3", region_name="us-east-1")
    s3.create_bucket(Bucket="staging")
    yield DynamoTaskStore(boto3.client("dynamodb"), "TasksTable", S3Blobs(s3, "staging"), clock)


def task(account: str = "acct_a", created: float = NOW, **kw: Any) -> TaskRecord:
    fields: dict[str, Any] = dict(
        task_id=new_task_id(),
        account_id=account,
        tool="research_brief",
        service="research",
        status=TaskStatus.WORKING,
        created_at=created,
        updated_at=created,
        ttl_ms=3_600_000,
        deadline=created + 960,
        charge={"account_id": account, "entry_id": "e1", "amount": 60, "tool": "research_brief", "request_id": "r"},
        status_message="queued",
        request_id="r",
    )
    fields.update(kw)
    return TaskRecord(**fields)


def test_a_created_task_reads_back_whole(store: TaskStore) -> None:
    t = task()
    store.create(t)
    assert store.get(t.task_id) == t
    assert store.get("task_unknown") is None


def test_an_id_cannot_be_created_twice(store: TaskStore) -> None:
    t = task()
    store.create(t)
    with pytest.raises(Exception):  # noqa: B017 - the adapters raise their own kind (ValueError, ConditionalCheckFailed)
        store.create(t)


def test_the_reply_is_written_once_and_only_while_working(store: TaskStore, clock: Clock) -> None:
    t = task()
    store.create(t)
    clock.now += 5
    assert store.begin(t.task_id, "running", t.deadline)
    assert store.put_reply(t.task_id, {"structured_content": {"n": 1}})
    assert not store.put_reply(t.task_id, {"structured_content": {"n": 2}}), "a second reply must not overwrite"
    got = store.get(t.task_id)
    assert got is not None
    assert got.reply == {"structured_content": {"n": 1}}
    assert got.status_message == "running"
    assert got.updated_at == NOW + 5


def test_exactly_one_writer_ends_a_task(store: TaskStore) -> None:
    t = task()
    store.create(t)
    result = {"content": [], "isError": False}
    done = store.finish(t.task_id, TaskStatus.COMPLETED, result, "completed")
    assert done is not None and done.status is TaskStatus.COMPLETED and done.result == result
    assert store.finish(t.task_id, TaskStatus.CANCELLED, None, "cancelled") is None
    assert not store.put_reply(t.task_id, {"structured_content": {}}), "a concluded task takes no reply"
    assert not store.begin(t.task_id, "late", t.deadline)
    assert store.get(t.task_id).status is TaskStatus.COMPLETED  # type: ignore[union-attr]


def test_a_cancelled_task_refuses_its_late_reply(store: TaskStore) -> None:
    t = task()
    store.create(t)
    assert store.finish(t.task_id, TaskStatus.CANCELLED, None, "cancelled by request") is not None
    assert not store.begin(t.task_id, "running", t.deadline), "the worker must see that it should not start"
    assert not store.put_reply(t.task_id, {"structured_content": {}})


def test_an_expired_task_is_gone(store: TaskStore, clock: Clock) -> None:
    t = task(ttl_ms=60_000)
    store.create(t)
    clock.now = NOW + 61
    assert store.get(t.task_id) is None
    assert store.list("acct_a", 10) == ([], None)


def test_large_payloads_round_trip(store: TaskStore) -> None:
    t = task()
    store.create(t)
    big = {"structured_content": {"text": "x" * (INLINE_LIMIT + 10)}}
    assert store.put_reply(t.task_id, big)
    result = {"content": [{"type": "text", "text": "y" * (INLINE_LIMIT + 10)}], "isError": False}
    assert store.finish(t.task_id, TaskStatus.COMPLETED, result, "completed") is not None
    got = store.get(t.task_id)
    assert got is not None and got.reply == big and got.result == result


def test_a_reply_and_its_result_fit_in_one_item(store: TaskStore) -> None:
    """A concluded task keeps both, each as large as stays inline: DynamoDB's item (400 KB) must take them together.

    A tool result holds its reply twice (structuredContent, and its JSON as text), so a reply of 140 KB
    kept inline beside a result of 280 KB kept inline made the concluding write fail and the task stick.
    """
    t = task()
    store.create(t)
    reply = {"structured_content": {"text": "x" * (INLINE_LIMIT - 100)}}
    assert store.put_reply(t.task_id, reply)
    result = {"content": [{"type": "text", "text": "y" * (INLINE_LIMIT - 100)}], "isError": False}
    assert store.finish(t.task_id, TaskStatus.COMPLETED, result, "completed") is not None
    got = store.get(t.task_id)
    assert got is not None and got.reply == reply and got.result == result


def test_without_a_blob_store_a_payload_too_large_to_keep_is_refused_and_nothing_is_written(
    aws: None, clock: Clock
) -> None:
    """Kept inline whatever their size, a reply and its result overflowed the item (400 KB): the concluding write
    failed and the task stuck in `working`. Refused before any write instead, so the writer can keep an error."""
    store = DynamoTaskStore(boto3.client("dynamodb"), "TasksTable", None, clock)
    t = task()
    store.create(t)
    with pytest.raises(PayloadTooLargeError):
        store.put_reply(t.task_id, {"structured_content": {"text": "x" * INLINE_LIMIT}})
    reply = {"structured_content": {"text": "x" * (INLINE_LIMIT - 100)}}
    assert store.put_reply(t.task_id, reply), "the refused reply wrote nothing: the task still takes one"
    result = {"content": [{"type": "text", "text": "y" * INLINE_LIMIT}], "isError": False}
    with pytest.raises(PayloadTooLargeError):
        store.finish(t.task_id, TaskStatus.COMPLETED, result, "completed")
    got = store.get(t.task_id)
    assert got is not None and got.status is TaskStatus.WORKING and got.reply == reply
    error = {"content": [], "isError": True}
    done = store.finish(t.task_id, TaskStatus.COMPLETED, error, "too large")
    assert done is not None and done.result == error


def test_listing_is_per_account_newest_first_and_paged(store: TaskStore) -> None:
    mine = [task(created=NOW + i) for i in range(5)]
    for t in [*mine, task(account="acct_b", created=NOW + 2.5)]:
        store.create(t)
    first, cursor = store.list("acct_a", 2)
    assert [t.task_id for t in first] == [mine[4].task_id, mine[3].task_id]
    assert cursor is not None
    second, cursor2 = store.list("acct_a", 2, cursor)
    assert [t.task_id for t in second] == [mine[2].task_id, mine[1].task_id]
    third, _ = store.list("acct_a", 2, cursor2)
    assert [t.task_id for t in third] == [mine[0].task_id]
    with pytest.raises(BadCursorError):
        store.list("acct_b", 2, cursor)  # another account's cursor
    with pytest.raises(BadCursorError):
        store.list("acct_a", 2, "not-a-cursor")


def test_a_task_is_only_begun_if_it_can_end_by_its_deadline(store: TaskStore) -> None:
    t = task()
    store.create(t)
    assert store.begin(t.task_id, "running", ends_by=t.deadline + 1) is False  # queued too long: never runs
    assert store.begin(t.task_id, "running", ends_by=t.deadline) is True
    found = store.get(t.task_id)
    assert found is not None and found.status_message == "running"


def test_failing_an_unreplied_task_loses_to_a_reply_that_landed_first(store: TaskStore) -> None:
    t = task()
    store.create(t)
    assert store.put_reply(t.task_id, {"structured_content": {"ok": True}})
    assert store.finish(t.task_id, TaskStatus.FAILED, None, "did not report back", unreplied=True) is None
    found = store.get(t.task_id)
    assert found is not None and found.status is TaskStatus.WORKING and found.reply is not None
