"""Durable tasks through the gateway (in-memory stores): both eras, billing, ownership, cancellation."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import pytest

from mcp_platform.billing.lifecycle import CallBilling
from mcp_platform.durable_tasks.destination import on_failed_event
from mcp_platform.durable_tasks.memory import MemoryTaskStore
from mcp_platform.durable_tasks.model import DEFAULT_TTL_MS
from mcp_platform.protocol.mcp import CLIENT_CAPABILITIES_META, PROTOCOL_VERSION_META
from mcp_router.settings import RouterSettings
from mcp_router.task_calls import DEADLINE_MARGIN_S
from mcp_router.task_methods import EXTENSION, RELATED_TASK_META
from tests.support.clock import Clock
from tests.support.router import (
    FAILED,
    MODERN,
    OK,
    Platform,
    ScriptedInvoker,
    assert_rpc_error,
    body,
    fake_registry,
    fake_spec,
    message,
    modern_headers,
    platform,
    structured_text_matches,
)

if TYPE_CHECKING:
    from mcp_platform.protocol.payloads import ServiceReply

PRICE = 5


class Env:
    def __init__(
        self, steps: list[Any] | None = None, credits: int = 100, page_size: int = 50, clock: Clock | None = None
    ) -> None:
        self.store = MemoryTaskStore()
        self.invoker = ScriptedInvoker(steps or [OK])
        registry = fake_registry(
            fake_spec("fake_long", price=PRICE, task_support="optional"),
            fake_spec("fake_sync", price=PRICE),
            fake_spec("fake_must", price=PRICE, task_support="required"),
        )
        settings = RouterSettings(tools_page_size=page_size)
        self.p: Platform = platform(
            registry, self.invoker, settings, credits=credits, task_store=self.store, clock=clock
        )

    @property
    def balance(self) -> int:
        return self.p.ledger.balance(self.p.account_id)

    def create(self, tool: str = "fake_long", headers: Any = None, rpc_id: int = 1) -> dict[str, Any]:
        params = {"name": tool, "arguments": {"text": "hi"}, "task": {"ttl": 60_000}}
        response = self.p.post(message("tools/call", params, rpc_id), headers)
        assert response.status == 200, response.body
        return body(response)["result"]

    def modern(self, method: str, params: dict[str, Any], name: str | None, extension: bool = True) -> Any:
        capabilities = {"extensions": {EXTENSION: {}}} if extension else {}
        meta = {PROTOCOL_VERSION_META: MODERN, CLIENT_CAPABILITIES_META: capabilities}
        return self.p.post(message(method, {**params, "_meta": meta}), modern_headers(method, name))


@pytest.fixture
def env() -> Env:
    return Env()


# -- discovery


def test_capabilities_and_tools_list_say_which_tools_run_as_tasks(env: Env) -> None:
    init = env.p.rpc("initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t"}})
    assert init["capabilities"]["tasks"] == {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}
    discover = body(env.modern("server/discover", {}, None))["result"]
    assert discover["capabilities"]["extensions"] == {EXTENSION: {}}
    assert "tasks" not in discover["capabilities"]
    tools = {t["name"]: t for t in env.p.rpc("tools/list")["tools"]}
    assert tools["fake_long"]["execution"] == {"taskSupport": "optional"}
    assert tools["fake_must"]["execution"] == {"taskSupport": "required"}
    assert "execution" not in tools["fake_sync"]


def test_the_real_registry_declares_the_long_tools_task_capable(registry: Any) -> None:
    support = {spec.name: spec.task_support for spec in registry}
    long_tools = ("research_brief", "compare_options", "docs_extract", "shot_capture", "whisper_transcribe")
    assert {support[name] for name in long_tools} == {"optional"}
    assert support["hello_ping"] == support["source_lookup"] == "forbidden"


def test_without_a_task_store_nothing_is_advertised() -> None:
    p = platform(fake_registry(fake_spec("fake_long", task_support="optional")), ScriptedInvoker([OK]))
    init = p.rpc("initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t"}})
    assert "tasks" not in init["capabilities"]
    assert_rpc_error(p.post(message("tasks/get", {"taskId": "task_x"})), 200, -32601, 1)


# -- 2025-11-25


def test_legacy_create_poll_result_charges_once(env: Env) -> None:
    created = env.create()["task"]
    assert created["status"] == "working"
    assert created["taskId"].startswith("task_") and len(created["taskId"]) > 30
    assert created["ttl"] == 60_000 and created["pollInterval"] > 0
    assert created["createdAt"].endswith("Z") and created["lastUpdatedAt"].endswith("Z")
    assert env.balance == 100 - PRICE, "reserved when the task is created"
    assert env.p.rpc("tasks/get", {"taskId": created["taskId"]})["status"] == "working"

    [worker] = env.invoker.run_tasks(env.store)
    assert worker == {"task_id": created["taskId"], "ran": True, "stored": True}
    polled = env.p.rpc("tasks/get", {"taskId": created["taskId"]})
    assert polled["status"] == "completed"
    result = env.p.rpc("tasks/result", {"taskId": created["taskId"]})
    structured_text_matches(result)
    assert result["structuredContent"] == {"echo": "done", "credits_charged": PRICE, "credits_balance": 95}
    assert result["_meta"][RELATED_TASK_META] == {"taskId": created["taskId"]}
    assert env.p.rpc("tasks/result", {"taskId": created["taskId"]}) == result, "result stays readable"
    assert env.balance == 95
    kinds = [e.kind for e in env.p.ledger.entries(env.p.account_id)]
    assert kinds.count("charge") == 1 and "refund" not in kinds


def test_a_tool_error_is_failed_on_the_legacy_wire_and_refunded(env: Env) -> None:
    env.invoker.steps = [FAILED]
    task_id = env.create()["task"]["taskId"]
    env.invoker.run_tasks(env.store)
    polled = env.p.rpc("tasks/get", {"taskId": task_id})
    assert polled["status"] == "failed"
    assert "backend down" in polled["statusMessage"]
    result = env.p.rpc("tasks/result", {"taskId": task_id})
    assert result["isError"] is True and result["structuredContent"]["credits_charged"] == 0
    assert env.balance == 100


def test_cancel_before_the_worker_runs_refunds_and_the_tool_never_runs(env: Env) -> None:
    task_id = env.create()["task"]["taskId"]
    cancelled = env.p.rpc("tasks/cancel", {"taskId": task_id})
    assert cancelled["status"] == "cancelled"
    assert env.balance == 100
    assert env.invoker.run_tasks(env.store) == [{"task_id": task_id, "ran": False}]
    assert env.invoker.calls == [], "a cancelled task's tool is not run"
    assert env.p.rpc("tasks/get", {"taskId": task_id})["status"] == "cancelled"
    result = env.p.rpc("tasks/result", {"taskId": task_id})
    assert result["isError"] and result["structuredContent"]["code"] == "cancelled"
    assert_rpc_error(env.p.post(message("tasks/cancel", {"taskId": task_id})), 200, -32602, 1)
    assert env.balance == 100, "cancelling twice refunds once"


def test_a_reply_after_cancellation_is_dropped_and_not_charged(env: Env) -> None:
    task_id = env.create()["task"]["taskId"]

    def cancel_while_running(request: Any) -> ServiceReply:
        env.p.rpc("tasks/cancel", {"taskId": task_id})
        return OK

    env.invoker.steps = [cancel_while_running]
    assert env.invoker.run_tasks(env.store) == [{"task_id": task_id, "ran": True, "stored": False}]
    assert env.p.rpc("tasks/get", {"taskId": task_id})["status"] == "cancelled"
    assert env.balance == 100


def test_a_completed_task_cannot_be_cancelled_and_stays_charged(env: Env) -> None:
    task_id = env.create()["task"]["taskId"]
    env.invoker.run_tasks(env.store)
    error = assert_rpc_error(env.p.post(message("tasks/cancel", {"taskId": task_id})), 200, -32602, 1)
    assert "completed" in error["message"]
    assert env.balance == 95


def test_another_accounts_task_is_answered_as_unknown(env: Env) -> None:
    task_id = env.create()["task"]["taskId"]
    other = env.p.admin.create_account("other", frozenset({"fake", "hello"}), 100, account_id="acct_other")
    other_key = env.p.admin.issue_key(other.account_id)
    for method in ("tasks/get", "tasks/result", "tasks/cancel"):
        theirs = assert_rpc_error(env.p.post(message(method, {"taskId": task_id}), key=other_key), 200, -32602, 1)
        unknown = assert_rpc_error(env.p.post(message(method, {"taskId": "task_nope"})), 200, -32602, 1)
        assert theirs == unknown
    listed = env.p.post(message("tasks/list", {}), key=other_key)
    assert body(listed)["result"] == {"tasks": []}
    assert env.p.rpc("tasks/get", {"taskId": task_id})["status"] == "working", "the owner's task is untouched"


def test_tasks_list_pages_the_accounts_tasks() -> None:
    env = Env(page_size=2)
    ids = [env.create()["task"]["taskId"] for _ in range(3)]
    listed = env.p.rpc("tasks/list", {})
    assert len(listed["tasks"]) == 2 and "nextCursor" in listed
    collected = [t["taskId"] for t in listed["tasks"]]
    cursor = listed.get("nextCursor")
    while cursor:
        page = env.p.rpc("tasks/list", {"cursor": cursor})
        collected += [t["taskId"] for t in page["tasks"]]
        cursor = page.get("nextCursor")
    assert sorted(collected) == sorted(ids)
    assert_rpc_error(env.p.post(message("tasks/list", {"cursor": "bogus"})), 200, -32602, 1)


def test_task_support_is_enforced_on_the_legacy_wire(env: Env) -> None:
    forbidden = env.p.post(
        message("tools/call", {"name": "fake_sync", "arguments": {"text": "hi"}, "task": {"ttl": 60_000}})
    )
    assert_rpc_error(forbidden, 200, -32601, 1)
    required = env.p.post(message("tools/call", {"name": "fake_must", "arguments": {"text": "hi"}}))
    assert_rpc_error(required, 200, -32601, 1)
    assert env.balance == 100


@pytest.mark.parametrize("task", ["yes", False, True, 3, 0, [], [{"ttl": 60_000}]], ids=repr)
def test_a_task_that_is_not_an_object_is_invalid_params_and_reserves_nothing(env: Env, task: Any) -> None:
    """`params.task` is task metadata, an object: `"yes"` or `false` asks for no task the router can tell apart."""
    response = env.p.post(message("tools/call", {"name": "fake_long", "arguments": {"text": "hi"}, "task": task}))
    error = assert_rpc_error(response, 200, -32602, 1)
    assert "params.task must be an object" in error["message"]
    assert env.balance == 100
    assert env.invoker.started == [] and env.invoker.calls == []
    assert env.store.list(env.p.account_id, 10) == ([], None)


@pytest.mark.parametrize("task", [{}, {"ttl": None}, {"ttl": "1h"}, {"ttl": True}])
def test_a_task_object_with_an_unusable_ttl_gets_the_default(env: Env, task: dict[str, Any]) -> None:
    """The ttl is the client's request, which the server may adjust: one it cannot read is not a reason to refuse."""
    created = env.p.rpc("tools/call", {"name": "fake_long", "arguments": {"text": "hi"}, "task": task})["task"]
    assert created["status"] == "working" and created["ttl"] == DEFAULT_TTL_MS
    assert env.balance == 100 - PRICE


def test_a_plain_call_to_a_task_capable_tool_runs_synchronously(env: Env) -> None:
    result = env.p.call("fake_long", {"text": "hi"})
    assert result["structuredContent"]["credits_charged"] == PRICE
    assert env.invoker.started == []


def test_a_synchronous_timeout_names_tasks_and_costs_nothing(env: Env) -> None:
    from mcp_router.invoker import failed

    env.invoker.steps = [failed("fake", "the service did not answer in time", timed_out=True)]
    result = env.p.call("fake_long", {"text": "hi"})
    assert result["isError"]
    assert "params.task" in result["structuredContent"]["error"]
    assert EXTENSION in result["structuredContent"]["error"]
    assert result["structuredContent"]["credits_charged"] == 0
    assert env.balance == 100


def test_bad_arguments_or_no_credits_end_the_call_before_a_task_exists() -> None:
    env = Env(credits=3)
    bad = env.p.rpc("tools/call", {"name": "fake_long", "arguments": {"text": ""}, "task": {"ttl": 60_000}})
    assert bad["isError"] and bad["structuredContent"]["code"] == "invalid_arguments"
    poor = env.create()
    assert poor["isError"] and poor["structuredContent"]["code"] == "insufficient_credits"
    assert env.invoker.started == [] and env.store.list(env.p.account_id, 10) == ([], None)


def test_a_task_that_cannot_be_started_fails_and_is_refunded(env: Env) -> None:
    from mcp_router.invoker import TaskNotStartedError

    def refuse(service: str, request: Any) -> None:
        raise TaskNotStartedError("fake: throttled")

    env.invoker.start = refuse  # type: ignore[method-assign]
    result = env.create()
    assert result["isError"] and result["structuredContent"]["credits_charged"] == 0
    assert env.balance == 100
    [failed_task] = env.store.list(env.p.account_id, 10)[0]
    assert failed_task.status == "failed"


def test_the_on_failure_destination_fails_the_task_and_refunds_once(env: Env) -> None:
    task_id = env.create()["task"]["taskId"]
    [(_service, request)] = env.invoker.started
    event = {
        "requestContext": {"condition": "RetriesExhausted"},
        "requestPayload": request.model_dump(mode="json"),
        "responsePayload": {"errorType": "Sandbox.Timedout", "errorMessage": "Task timed out"},
    }
    assert on_failed_event(event, env.store, CallBilling(env.p.ledger)) == {"task_id": task_id, "failed": True}
    assert on_failed_event(event, env.store, CallBilling(env.p.ledger)) == {"task_id": task_id, "failed": False}
    assert env.balance == 100
    polled = env.p.rpc("tasks/get", {"taskId": task_id})
    assert polled["status"] == "failed" and "Sandbox.Timedout" in polled["statusMessage"]


def test_a_task_past_its_deadline_fails_and_is_refunded(env: Env) -> None:
    task_id = env.create()["task"]["taskId"]
    task = env.store.get(task_id)
    assert task is not None
    env.store._tasks[task_id] = task.with_changes(deadline=task.created_at - 1)  # as if the deadline had passed
    assert env.p.rpc("tasks/get", {"taskId": task_id})["status"] == "failed"
    assert env.balance == 100
    assert env.invoker.run_tasks(env.store)[0]["ran"] is False, "a late worker finds the task over"


def test_a_tasks_deadline_covers_the_event_queue_and_the_run_and_the_worker_agrees(env: Env) -> None:
    settings = env.p.deps.settings
    task_id = env.create()["task"]["taskId"]
    task = env.store.get(task_id)
    assert task is not None
    queue_and_run = settings.task_event_max_age_seconds + settings.task_timeout_seconds
    assert task.deadline == pytest.approx(task.created_at + queue_and_run + DEADLINE_MARGIN_S)
    # A worker dequeued after the longest queue wait still ends by the deadline, so it is started:
    assert env.invoker.run_tasks(env.store, ends_by=task.deadline - DEADLINE_MARGIN_S)[0]["ran"] is True


def test_a_retry_past_the_deadline_of_a_task_that_replied_replays_it_and_does_not_run_it_again() -> None:
    clock = Clock(time.time())
    env = Env(clock=clock)
    headers = {"idempotency-key": "k1"}
    task_id = env.create(headers=headers)["task"]["taskId"]
    env.invoker.run_tasks(env.store)  # the reply is in; nobody polled, and the sweep has not run yet
    task = env.store.get(task_id)
    assert task is not None
    clock.now = task.deadline + 1
    again = env.create(headers=headers, rpc_id=2)["task"]
    assert again["taskId"] == task_id and again["status"] == "completed"
    assert env.invoker.started == [], "the tool does not run a second time"
    assert env.balance == 100 - PRICE  # charged once, not refunded


def test_idempotency_key_makes_task_creation_retry_safe(env: Env) -> None:
    headers = {"idempotency-key": "k1"}
    first = env.create(headers=headers)["task"]
    retry = env.create(headers=headers, rpc_id=2)["task"]  # a retry with a new JSON-RPC id, while it runs
    assert retry["taskId"] == first["taskId"] and retry["status"] == "working"
    assert len(env.invoker.started) == 1, "the tool runs once"
    env.invoker.run_tasks(env.store)
    done = env.create(headers=headers)["task"]
    assert done["taskId"] == first["taskId"] and done["status"] == "completed"
    assert env.balance == 100 - PRICE, "charged once"
    other = env.p.post(
        message("tools/call", {"name": "fake_long", "arguments": {"text": "other"}, "task": {}}), headers
    )
    assert body(other)["result"]["structuredContent"]["code"] == "idempotency_conflict"


def test_one_idempotency_key_across_a_plain_call_and_a_task(env: Env) -> None:
    headers = {"idempotency-key": "k2"}
    task_id = env.create(headers=headers)["task"]["taskId"]
    env.invoker.run_tasks(env.store)
    env.p.rpc("tasks/get", {"taskId": task_id})
    plain = body(env.p.post(message("tools/call", {"name": "fake_long", "arguments": {"text": "hi"}}), headers))
    assert plain["result"]["isError"] and plain["result"]["structuredContent"]["task_id"] == task_id
    assert plain["result"]["structuredContent"]["code"] == "idempotency_conflict"

    sync_headers = {"idempotency-key": "k3"}
    first = body(env.p.post(message("tools/call", {"name": "fake_long", "arguments": {"text": "hi"}}), sync_headers))
    again = env.create(headers=sync_headers)
    assert again["structuredContent"] == first["result"]["structuredContent"], "the plain call's result, replayed"
    assert env.balance == 100 - 2 * PRICE


# -- 2026-07-28 extension


def test_modern_server_directed_task_carries_the_result_in_tasks_get(env: Env) -> None:
    created = body(env.modern("tools/call", {"name": "fake_long", "arguments": {"text": "hi"}}, "fake_long"))["result"]
    assert created["resultType"] == "task"
    assert created["status"] == "working" and created["ttlMs"] > 0 and created["pollIntervalMs"] > 0
    task_id = created["taskId"]
    working = body(env.modern("tasks/get", {"taskId": task_id}, task_id))["result"]
    assert working["resultType"] == "complete" and working["status"] == "working" and "result" not in working
    env.invoker.run_tasks(env.store)
    done = body(env.modern("tasks/get", {"taskId": task_id}, task_id))["result"]
    assert done["status"] == "completed"
    assert done["result"]["structuredContent"]["credits_charged"] == PRICE
    assert done["result"]["isError"] is False
    assert env.balance == 95


def test_modern_tool_error_is_completed_with_is_error(env: Env) -> None:
    env.invoker.steps = [FAILED]
    task_id = body(env.modern("tools/call", {"name": "fake_long", "arguments": {"text": "hi"}}, "fake_long"))["result"][
        "taskId"
    ]
    env.invoker.run_tasks(env.store)
    done = body(env.modern("tasks/get", {"taskId": task_id}, task_id))["result"]
    assert done["status"] == "completed" and done["result"]["isError"] is True
    assert env.balance == 100


def test_modern_cancel_acknowledges_and_refunds(env: Env) -> None:
    task_id = body(env.modern("tools/call", {"name": "fake_long", "arguments": {"text": "hi"}}, "fake_long"))["result"][
        "taskId"
    ]
    ack = body(env.modern("tasks/cancel", {"taskId": task_id}, task_id))["result"]
    assert ack == {"resultType": "complete", "_meta": ack["_meta"]}
    assert env.balance == 100
    again = body(env.modern("tasks/cancel", {"taskId": task_id}, task_id))["result"]
    assert again["resultType"] == "complete", "cancelling an ended task is acknowledged too"
    assert body(env.modern("tasks/get", {"taskId": task_id}, task_id))["result"]["status"] == "cancelled"
    update = env.modern("tasks/update", {"taskId": task_id, "inputResponses": {}}, task_id)
    assert body(update)["result"]["resultType"] == "complete"


def test_modern_client_without_the_extension_gets_a_plain_result(env: Env) -> None:
    plain = body(env.modern("tools/call", {"name": "fake_long", "arguments": {"text": "hi"}}, "fake_long", False))
    assert plain["result"]["resultType"] == "complete"
    assert plain["result"]["structuredContent"]["credits_charged"] == PRICE
    required = env.modern("tools/call", {"name": "fake_must", "arguments": {"text": "hi"}}, "fake_must", False)
    error = assert_rpc_error(required, 400, -32021, 1)
    assert error["data"] == {"requiredCapabilities": {"extensions": {EXTENSION: {}}}}
    assert_rpc_error(env.modern("tasks/get", {"taskId": "task_x"}, "task_x", False), 400, -32021, 1)


def test_modern_task_methods_check_the_mcp_name_header(env: Env) -> None:
    assert_rpc_error(env.modern("tasks/get", {"taskId": "task_a"}, "task_b"), 400, -32020, 1)
    assert_rpc_error(env.modern("tasks/get", {"taskId": "task_a"}, "task_a"), 400, -32602, 1)
    assert_rpc_error(env.modern("tasks/list", {}, None), 404, -32601, 1)


def test_the_payload_docs_say_how_to_run_a_tool_as_a_task(registry: Any) -> None:
    from mcp_platform.catalogue.generated_docs import service_payload

    docs = service_payload(registry, "docs")
    assert "**Runs synchronously or as a task** (`execution.taskSupport: optional`)" in docs
    assert "execution.taskSupport" not in service_payload(registry, "hello")


def test_tools_call_runs_a_modern_task_as_tools_call_does(env: Env) -> None:
    wrapped = {"name": "tools_call", "arguments": {"name": "fake_long", "arguments": {"text": "hi"}}}
    created = body(env.modern("tools/call", wrapped, "tools_call"))["result"]
    assert created["resultType"] == "task"
    env.invoker.run_tasks(env.store)
    done = body(env.modern("tasks/get", {"taskId": created["taskId"]}, created["taskId"]))["result"]
    assert done["status"] == "completed"
    assert done["result"]["structuredContent"]["credits_charged"] == PRICE
    assert env.balance == 100 - PRICE
