"""Tasks over moto DynamoDB, wired as in AWS: two router instances, the sweep, and the requests a task costs."""

from __future__ import annotations

import dataclasses
import time
from typing import TYPE_CHECKING, Any

import orjson
import pytest

from localdev.store import create_buckets
from mcp_platform.auth.accounts import AccountAdmin
from mcp_platform.auth.dynamodb import DynamoAccountStore
from mcp_platform.billing.dynamodb import DynamoLedger
from mcp_platform.billing.lifecycle import CallBilling
from mcp_platform.durable_tasks.dynamodb import INLINE_LIMIT
from mcp_platform.durable_tasks.sweep import task_resolver
from mcp_platform.protocol.errors import error_object
from mcp_platform.protocol.payloads import ServiceReply
from mcp_platform.storage.aws import client
from mcp_router.gateway import Gateway
from mcp_router.http import HttpRequest
from mcp_router.task_calls import STATUS_MESSAGE_LIMIT
from mcp_router.wiring import dependencies_from_env
from tests.support.dynamo import count_requests, router_env
from tests.support.router import JSON_HEADERS, ScriptedInvoker, fake_registry, fake_spec, message

if TYPE_CHECKING:
    from collections.abc import Iterator

    from mcp_platform.durable_tasks.store import TaskStore

PRICE = 3
ENV = router_env(
    TASKS_TABLE="TasksTable", KEY_CACHE_SECONDS="30", TASK_TIMEOUT_SECONDS="60", TASK_EVENT_MAX_AGE_SECONDS="60"
)


@dataclasses.dataclass
class Router:
    gateway: Gateway
    key: str

    def rpc(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        headers = {**JSON_HEADERS, "authorization": f"Bearer {self.key}", "mcp-protocol-version": "2025-11-25"}
        response = self.gateway.handle(HttpRequest("POST", "/mcp", headers, orjson.dumps(message(method, params))))
        assert response.status == 200, response.body
        reply = orjson.loads(response.body)
        assert "result" in reply, reply
        return reply["result"]


class Later:
    """The routers' wall clock, movable: `offset` seconds ahead of real time."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


@dataclasses.dataclass
class Stack:
    a: Router
    b: Router
    invoker: ScriptedInvoker
    store: TaskStore
    ledger: DynamoLedger
    account_id: str
    clock: Later

    @property
    def balance(self) -> int:
        return self.ledger.balance(self.account_id)

    def create(self) -> str:
        params = {"name": "fake_long", "arguments": {"text": "hi"}, "task": {"ttl": 600_000}}
        task_id: str = self.a.rpc("tools/call", params)["task"]["taskId"]
        return task_id


@pytest.fixture(autouse=True)
def fresh_clients(aws: None) -> Iterator[None]:
    client.cache_clear()
    yield
    client.cache_clear()


@pytest.fixture
def stack() -> Stack:
    create_buckets()  # the staging bucket, where task payloads too large for an item go
    return make_stack(ENV)


def make_stack(env: dict[str, str]) -> Stack:
    invoker = ScriptedInvoker([ServiceReply(structured_content={"echo": "ok"})])
    registry = fake_registry(fake_spec("fake_long", price=PRICE, task_support="optional"))

    clock = Later()

    def router_deps() -> Any:
        return dataclasses.replace(dependencies_from_env(invoker=invoker, env=env), registry=registry, clock=clock)

    deps_a, deps_b = router_deps(), router_deps()  # two router instances: nothing shared but the tables
    ddb = client("dynamodb")
    ledger = DynamoLedger(ddb, env["ACCOUNTS_TABLE"], env["LEDGER_TABLE"], env["CALLS_TABLE"])
    admin = AccountAdmin(DynamoAccountStore(ddb, env["ACCOUNTS_TABLE"], env["API_KEYS_TABLE"]), ledger)
    account = admin.create_account("tasks", frozenset(registry.services), 10, account_id="acct_tasks")
    key = admin.issue_key(account.account_id)
    assert deps_a.task_store is not None
    return Stack(
        Router(Gateway(deps_a), key),
        Router(Gateway(deps_b), key),
        invoker,
        deps_a.task_store,
        ledger,
        "acct_tasks",
        clock,
    )


def test_another_router_instance_answers_every_poll(stack: Stack) -> None:
    task_id = stack.create()
    assert stack.b.rpc("tasks/get", {"taskId": task_id})["status"] == "working"
    stack.invoker.run_tasks(stack.store)
    assert stack.b.rpc("tasks/get", {"taskId": task_id})["status"] == "completed"
    result = stack.a.rpc("tasks/result", {"taskId": task_id})
    assert result["structuredContent"]["credits_charged"] == PRICE
    assert result["structuredContent"]["credits_balance"] == 10 - PRICE == stack.balance


def test_the_sweep_fails_and_refunds_a_task_that_never_reports_back_once(stack: Stack) -> None:
    task_id = stack.create()
    assert stack.balance == 10 - PRICE
    later = CallBilling(
        stack.ledger, clock=lambda: time.time() + 200
    )  # past the task's deadline (60 s queue + 60 s run + margin)
    first, second = later.sweep(task_resolver(stack.store)), later.sweep(task_resolver(stack.store))
    assert [r["request_id"] for r in first.refunded] == [task_id]
    assert second.refunded == [], "a second sweep refunds nothing more"
    assert stack.balance == 10
    polled = stack.b.rpc("tasks/get", {"taskId": task_id})
    assert polled["status"] == "failed" and "did not report back" in polled["statusMessage"]
    assert stack.invoker.run_tasks(stack.store)[0]["ran"] is False, "a late event finds the task over"
    assert stack.balance == 10


def test_the_sweep_settles_a_reply_nobody_polled(stack: Stack) -> None:
    task_id = stack.create()
    stack.invoker.run_tasks(stack.store)
    report = CallBilling(stack.ledger, clock=lambda: time.time() + 200).sweep(task_resolver(stack.store))
    assert [r["request_id"] for r in report.settled] == [task_id]
    assert stack.balance == 10 - PRICE
    result = stack.b.rpc("tasks/result", {"taskId": task_id})  # concluded late: the charge stands, once
    assert result["structuredContent"]["credits_charged"] == PRICE
    assert stack.balance == 10 - PRICE


def test_a_reply_the_default_sweep_refunded_is_delivered_free(stack: Stack) -> None:
    """`mcp-admin reconcile` sweeps without the task resolver: an unpolled reply's call is refunded."""
    task_id = stack.create()
    stack.invoker.run_tasks(stack.store)
    report = CallBilling(stack.ledger, clock=lambda: time.time() + 200).sweep()
    assert [r["request_id"] for r in report.refunded] == [task_id]
    assert stack.balance == 10
    stack.clock.offset = 200  # the routers poll after that sweep
    result = stack.b.rpc("tasks/result", {"taskId": task_id})
    assert result["isError"] is False and result["structuredContent"]["credits_charged"] == 0, "never says charged"
    assert stack.balance == 10


def test_a_huge_error_text_still_ends_the_task_and_refunds_it(stack: Stack) -> None:
    """A tool's error text becomes the task's status message, which shares the item (400 KB) with everything else:
    kept whole there, half a megabyte of it failed the concluding write, and the task stuck in `working` with every
    poll a 500. The message is capped; the result still carries the whole text."""
    text = "the backend said: " + "no " * 200_000
    stack.invoker.steps = [ServiceReply(structured_content=error_object(text, "upstream_unavailable"))]
    task_id = stack.create()
    stack.invoker.run_tasks(stack.store)
    polled = stack.b.rpc("tasks/get", {"taskId": task_id})
    assert polled["status"] == "failed"
    assert len(polled["statusMessage"]) <= STATUS_MESSAGE_LIMIT
    assert polled["statusMessage"].startswith("the backend said: no no") and polled["statusMessage"].endswith("…")
    result = stack.a.rpc("tasks/result", {"taskId": task_id})
    assert result["isError"] is True and result["structuredContent"]["error"] == text
    assert result["structuredContent"]["credits_charged"] == 0
    assert stack.balance == 10


@pytest.mark.parametrize(
    "size",
    [
        pytest.param(150_000, id="its-result-too-large"),  # the reply stays inline, its result (twice as large) cannot
        pytest.param(INLINE_LIMIT + 1_000, id="the-reply-too-large"),
    ],
)
def test_without_a_staging_bucket_a_result_too_large_to_keep_is_a_free_error(size: int) -> None:
    """STAGING_BUCKET is optional on the router; without it, payloads were kept inline whatever their size, and a
    reply and its result over the item's 400 KB stuck the task in `working` with every poll a 500. A result the
    store cannot keep is now the tool error `too_large`, and the reservation goes back."""
    stack = make_stack({**ENV, "STAGING_BUCKET": ""})
    stack.invoker.steps = [ServiceReply(structured_content={"text": "x" * size})]
    task_id = stack.create()
    assert stack.balance == 10 - PRICE
    [worker] = stack.invoker.run_tasks(stack.store)
    assert worker["stored"] is True
    polled = stack.b.rpc("tasks/get", {"taskId": task_id})
    assert polled["status"] == "failed" and "nothing was charged" in polled["statusMessage"]
    result = stack.a.rpc("tasks/result", {"taskId": task_id})
    assert result["isError"] is True and result["structuredContent"]["code"] == "too_large"
    assert result["structuredContent"]["credits_charged"] == 0
    assert stack.balance == 10
    assert stack.a.rpc("tasks/get", {"taskId": task_id})["status"] == "failed", "read again, the same"


def test_dynamodb_requests_per_task(stack: Stack) -> None:
    """The figures docs and notes quote; the bounds keep them from creeping up unnoticed."""
    ddb = client("dynamodb")
    stack.a.rpc("tools/list", {})  # warm both key caches, as busy routers have them
    stack.b.rpc("tools/list", {})
    with count_requests(ddb) as create:
        task_id = stack.create()
    with count_requests(ddb) as working_poll:
        stack.b.rpc("tasks/get", {"taskId": task_id})
    with count_requests(ddb) as worker:
        stack.invoker.run_tasks(stack.store)
    with count_requests(ddb) as concluding_poll:
        stack.b.rpc("tasks/get", {"taskId": task_id})
    with count_requests(ddb) as result:
        stack.b.rpc("tasks/result", {"taskId": task_id})
    figures = {
        "create": dict(create),
        "poll while working": dict(working_poll),
        "worker": dict(worker),
        "poll that concludes": dict(concluding_poll),
        "tasks/result": dict(result),
    }
    print("\nDynamoDB requests per task phase:", figures)
    assert sum(create.values()) <= 5  # rate limit + debit + charge transaction + task PutItem
    assert sum(working_poll.values()) <= 2  # rate limit + GetItem
    assert sum(worker.values()) == 2  # "running" + the reply, both conditional UpdateItems
    assert sum(concluding_poll.values()) <= 4  # rate limit + GetItem + finish + settle
    assert sum(result.values()) <= 2


def test_admin_cli_reconcile_resolves_tasks_like_the_scheduled_sweep(
    stack: Stack, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from mcp_admin import cli

    task_id = stack.create()
    for name, value in ENV.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(cli, "CallBilling", lambda ledger: CallBilling(ledger, clock=lambda: time.time() + 200))
    assert cli.main(["reconcile"]) == 0
    assert [r["request_id"] for r in orjson.loads(capsys.readouterr().out)["refunded"]] == [task_id]
    assert stack.balance == 10
    task = stack.store.get(task_id)
    assert task is not None and task.status == "failed", "marked failed, not only refunded"


def test_admin_cli_reconcile_reads_replies_kept_in_the_blob_store(
    stack: Stack, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A reply over the item limit lives in S3: the CLI settles it as the scheduled sweep does (one builder)."""
    from mcp_admin import cli
    from mcp_platform.durable_tasks.dynamodb import INLINE_LIMIT

    task_id = stack.create()
    big = {"structured_content": {"echo": "x" * (INLINE_LIMIT + 1_000)}}
    assert stack.store.put_reply(task_id, big)
    for name, value in ENV.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(cli, "CallBilling", lambda ledger: CallBilling(ledger, clock=lambda: time.time() + 200))
    assert cli.main(["reconcile"]) == 0
    report = orjson.loads(capsys.readouterr().out)
    assert [r["request_id"] for r in report["settled"]] == [task_id] and report["refunded"] == []
    assert stack.balance == 10 - PRICE
