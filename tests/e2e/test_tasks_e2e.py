"""Durable tasks end to end: the local default on loopback, driven by the official mcp client (2.3).

What the client offers for tasks decides what is raw here. 2025-11-25: it parses `execution.taskSupport`
and sends `tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel` as typed requests, but validates
every `tools/call` answer as a `CallToolResult`, so a task is created with raw JSON-RPC (httpx).
2026-07-28: it has no tasks extension of its own, but its extension API (`ClientExtension` with a
`ResultClaim` for `resultType: "task"`) lets `call_tool` poll a task to its result; `TasksExtension`
below is that client side.
"""

from __future__ import annotations

import time
import uuid
from typing import TYPE_CHECKING, Any, Literal

import anyio
import boto3
import httpx
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.extension import ClaimContext, ClientExtension, ResultClaim
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from pydantic import TypeAdapter

from docs_support import make_pdf
from tests.e2e.routers import running_router
from tests.e2e.tool_calls import balance
from tests.integration.web_site import LocalSite, Reply
from tests.support.local_store import CALLS, reconcile

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from tests.e2e.conftest import LocalServer

pytestmark = pytest.mark.e2e

DOCS_PRICE = 2
EXTENSION = "io.modelcontextprotocol/tasks"
TASKS = "TasksTable"  # the local store names tables by their template logical ids
PDF = {"Content-Type": "application/pdf"}


# -- the 2026-07-28 client side, on the official client's extension API


class TaskHandle(types.Result):
    result_type: Literal["task"] = "task"
    task_id: str
    status: str
    poll_interval_ms: int | None = None


class GetTask(types.Request[types.GetTaskRequestParams, Literal["tasks/get"]]):
    method: Literal["tasks/get"] = "tasks/get"
    params: types.GetTaskRequestParams
    name_param = "taskId"  # the extension requires Mcp-Name = taskId


async def _poll(handle: TaskHandle, ctx: ClaimContext) -> types.CallToolResult:
    while True:
        task = await ctx.session.send_request(
            GetTask(params=types.GetTaskRequestParams(task_id=handle.task_id)), TypeAdapter(dict[str, Any])
        )
        if task["status"] == "completed":
            return types.CallToolResult.model_validate(task["result"], by_name=False)
        if task["status"] in ("failed", "cancelled"):
            raise RuntimeError(f"task {task['status']}: {task.get('statusMessage')}")
        await anyio.sleep((handle.poll_interval_ms or 1000) / 4000)  # a test may poll faster than advised


class TasksExtension(ClientExtension):
    identifier = EXTENSION

    def claims(self) -> Sequence[ResultClaim[Any]]:
        return [ResultClaim(result_type="task", model=TaskHandle, resolve=_poll)]


# -- helpers


def _legacy(server: LocalServer, url: str | None = None) -> Client:
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {server.api_key}"})
    return Client(streamable_http_client(url or server.url, http_client=http), mode="legacy")


def _create_task(server: LocalServer, tool: str, arguments: dict[str, Any], **headers: str) -> types.CreateTaskResult:
    """Raw JSON-RPC: the official client cannot receive a CreateTaskResult for tools/call."""
    response = httpx.post(
        server.url,
        headers={"Authorization": f"Bearer {server.api_key}", "MCP-Protocol-Version": "2025-11-25", **headers},
        json={
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": tool, "arguments": arguments, "task": {"ttl": 120_000}},
        },
        timeout=10,
    )
    assert response.status_code == 200 and "task" in response.json()["result"], response.text
    return types.CreateTaskResult.model_validate(response.json()["result"], by_name=False)


async def _get(client: Client, task_id: str) -> types.GetTaskResult:
    return await client.session.send_request(
        types.GetTaskRequest(params=types.GetTaskRequestParams(task_id=task_id)), types.GetTaskResult
    )


async def _until_terminal(client: Client, task_id: str, seconds: float = 30) -> types.GetTaskResult:
    deadline = time.monotonic() + seconds
    while (task := await _get(client, task_id)).status == "working":
        assert time.monotonic() < deadline, f"task {task_id} still working"
        await anyio.sleep(0.2)
    return task


async def _result(client: Client, task_id: str) -> types.CallToolResult:
    return await client.session.send_request(
        types.GetTaskPayloadRequest(params=types.GetTaskPayloadRequestParams(task_id=task_id)), types.CallToolResult
    )


@pytest.fixture(scope="module")
def site() -> Iterator[LocalSite]:
    with LocalSite() as s:
        s.routes["/report.pdf"] = Reply(body=make_pdf(["Alpha page text.", "Beta page text."]), headers=PDF)
        s.routes["/broken.pdf"] = Reply(body=b"%PDF-1.4\nnot really a pdf", headers=PDF)
        s.routes["/slow.pdf"] = Reply(body=make_pdf(["Slow."]) + b" " * 8_000, headers=PDF, delay=0.5)
        yield s


@pytest.fixture(scope="module")
def second_router(local_server: LocalServer) -> Iterator[str]:
    """Another router process over the same store: any instance must answer any poll."""
    with running_router(local_server.aws_endpoint.rsplit(":", 1)[1]) as url:
        yield url


# -- tests


@pytest.mark.anyio
async def test_legacy_create_poll_result_and_a_plain_call(local_server: LocalServer, site: LocalSite) -> None:
    async with _legacy(local_server) as client:
        listed: dict[str, types.Tool] = {}
        cursor = None
        while True:  # every page: the catalogue is longer than one
            page = await client.list_tools(cursor=cursor)
            listed.update({t.name: t for t in page.tools})
            if (cursor := page.next_cursor) is None:
                break
        assert listed["docs_extract"].execution.task_support == "optional"  # type: ignore[union-attr]
        assert listed["research_brief"].execution.task_support == "optional"  # type: ignore[union-attr]
        caps = client.session.server_capabilities
        assert caps is not None and caps.tasks is not None and caps.tasks.requests is not None

        before = await balance(client)
        created = _create_task(local_server, "docs_extract", {"url": site.url("/report.pdf")})
        assert created.task.status == "working" and created.task.ttl == 120_000
        assert await balance(client) == before - DOCS_PRICE, "reserved at creation"
        task = await _until_terminal(client, created.task.task_id)
        assert task.status == "completed"
        result = await _result(client, created.task.task_id)
        assert result.is_error is False
        assert result.structured_content["kind"] == "pdf"
        assert result.structured_content["credits_charged"] == DOCS_PRICE
        assert await balance(client) == before - DOCS_PRICE == result.structured_content["credits_balance"]
        listed_tasks = await client.session.send_request(types.ListTasksRequest(), types.ListTasksResult)
        assert created.task.task_id in {t.task_id for t in listed_tasks.tasks}

        plain = await client.call_tool("docs_extract", {"url": site.url("/report.pdf")})
        assert plain.is_error is False and plain.structured_content["credits_charged"] == DOCS_PRICE


@pytest.mark.anyio
async def test_a_failed_task_is_refunded(local_server: LocalServer, site: LocalSite) -> None:
    async with _legacy(local_server) as client:
        before = await balance(client)
        created = _create_task(local_server, "docs_extract", {"url": site.url("/broken.pdf")})
        task = await _until_terminal(client, created.task.task_id)
        assert task.status == "failed"  # 2025-11-25: an isError result is a failed task
        result = await _result(client, created.task.task_id)
        assert result.is_error is True and result.structured_content["credits_charged"] == 0
        assert await balance(client) == before


@pytest.mark.anyio
async def test_cancel_stops_the_charge(local_server: LocalServer, site: LocalSite) -> None:
    async with _legacy(local_server) as client:
        before = await balance(client)
        created = _create_task(local_server, "docs_extract", {"url": site.url("/slow.pdf")})
        cancelled = await client.session.send_request(
            types.CancelTaskRequest(params=types.CancelTaskRequestParams(task_id=created.task.task_id)),
            types.CancelTaskResult,
        )
        assert cancelled.status == "cancelled"
        assert await balance(client) == before
        await anyio.sleep(5)  # the slow page finishes meanwhile: its late reply must change nothing
        assert (await _get(client, created.task.task_id)).status == "cancelled"
        assert await balance(client) == before


@pytest.mark.anyio
async def test_modern_client_resolves_a_task_through_its_extension(local_server: LocalServer, site: LocalSite) -> None:
    async with Client(local_server.url_with_key, extensions=[TasksExtension()]) as client:
        assert client.session.protocol_version == "2026-07-28"
        before = await balance(client)
        result = await client.call_tool("docs_extract", {"url": site.url("/report.pdf")})
        assert result.is_error is False and result.structured_content["credits_charged"] == DOCS_PRICE
        assert await balance(client) == before - DOCS_PRICE
    async with Client(local_server.url_with_key) as plain_client:  # no extension: a plain synchronous result
        result = await plain_client.call_tool("docs_extract", {"url": site.url("/report.pdf")})
        assert result.is_error is False


@pytest.mark.anyio
async def test_a_second_router_instance_answers_the_poll(
    local_server: LocalServer, site: LocalSite, second_router: str
) -> None:
    created = _create_task(local_server, "docs_extract", {"url": site.url("/report.pdf")})
    async with _legacy(local_server, second_router) as other:
        task = await _until_terminal(other, created.task.task_id)
        assert task.status == "completed"
        result = await _result(other, created.task.task_id)
        assert result.structured_content["credits_charged"] == DOCS_PRICE


def _store(server: LocalServer) -> Any:
    return boto3.client("dynamodb", endpoint_url=server.aws_endpoint, region_name="us-east-1")


def _until_replied(server: LocalServer, task_id: str, seconds: float = 30) -> None:
    """Wait for the worker's reply in the store itself: a tasks/get would conclude (and settle) the task."""
    deadline = time.monotonic() + seconds
    while True:
        item = _store(server).get_item(TableName=TASKS, Key={"task_id": {"S": task_id}}, ConsistentRead=True)["Item"]
        if "reply" in item or "reply_ref" in item:
            return
        assert time.monotonic() < deadline, f"task {task_id} never replied"
        time.sleep(0.2)


def _past_its_deadline(server: LocalServer, task_id: str) -> None:
    """Time passes for the task's call: its record's deadline (creation + queue age + run + 60 s) is now behind."""
    ddb = _store(server)
    found = ddb.scan(
        TableName=CALLS, FilterExpression="request_id = :t", ExpressionAttributeValues={":t": {"S": task_id}}
    )
    (record,) = found["Items"]
    ddb.update_item(
        TableName=CALLS,
        Key={"call_id": record["call_id"]},
        UpdateExpression="SET in_progress_until = :past",
        ExpressionAttributeValues={":past": {"N": f"{time.time() - 1:.3f}"}},
    )


@pytest.mark.anyio
@pytest.mark.parametrize("ended_by", ["poll", "sweep", "retry"])
async def test_a_retry_with_the_key_gets_the_task_and_its_result_and_never_runs_it_twice(
    local_server: LocalServer, site: LocalSite, ended_by: str
) -> None:
    """The call of a task that replied ends by a poll, by the sweep past its deadline, or by the retry itself
    past the deadline; a retry with the same Idempotency-Key then gets that task, charged once, run once."""
    path = f"/once-{uuid.uuid4().hex}.pdf"
    site.routes[path] = site.routes["/report.pdf"]
    key = {"Idempotency-Key": f"task-{uuid.uuid4()}"}
    async with _legacy(local_server) as client:
        before = await balance(client)
        created = _create_task(local_server, "docs_extract", {"url": site.url(path)}, **key)
        task_id = created.task.task_id
        _until_replied(local_server, task_id)
        if ended_by == "poll":
            assert (await _until_terminal(client, task_id)).status == "completed"
        else:
            _past_its_deadline(local_server, task_id)
        if ended_by == "sweep":
            report = reconcile(local_server.aws_endpoint)
            assert [r["request_id"] for r in report["settled"]] == [task_id] and report["credits_returned"] == 0
        retried = _create_task(local_server, "docs_extract", {"url": site.url(path)}, **key)
        assert retried.task.task_id == task_id  # the task, not "result too large to keep" nor a second task
        assert (await _until_terminal(client, task_id)).status == "completed"
        result = await _result(client, task_id)
        assert result.is_error is False and result.structured_content["credits_charged"] == DOCS_PRICE
        assert await balance(client) == before - DOCS_PRICE
    assert [p for p, _ in site.requests].count(path) == 1  # the tool ran once
