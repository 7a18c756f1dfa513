"""The task methods on the wire, for both protocol eras, over one mechanism (`mcp_router.task_calls`).

2025-11-25 (experimental core feature): the client asks with `params.task`
on `tools/call` and gets a `CreateTaskResult` (`{task: {...}}`); `tasks/get`
returns the task, `tasks/result` the `CallToolResult` (waiting for it while
the task works), plus `tasks/list` and `tasks/cancel`; a tool result with
`isError` shows as status `failed`.

2026-07-28 (the `io.modelcontextprotocol/tasks` extension): the server
decides. A client that declares the extension gets `resultType: "task"` for
a task-capable tool; `tasks/get` carries the result once completed (a tool
error is `completed` with `isError`, `failed` means no result at all, with a
JSON-RPC `error`), `tasks/cancel` and `tasks/update` answer an empty result.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from mcp_platform.durable_tasks.model import TaskRecord, TaskStatus, clamp_ttl_ms, iso
from mcp_platform.protocol.jsonrpc import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    METHOD_NOT_FOUND,
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    JsonRpcError,
)
from mcp_platform.protocol.mcp import CLIENT_CAPABILITIES_META

if TYPE_CHECKING:
    from collections.abc import Callable

    from mcp_platform.catalogue.registry import ToolSpec
    from mcp_router.context import RequestContext
    from mcp_router.task_calls import TaskCalls

EXTENSION = "io.modelcontextprotocol/tasks"
RELATED_TASK_META = "io.modelcontextprotocol/related-task"
LEGACY_CAPABILITY: dict[str, Any] = {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}
MODERN_CAPABILITY: dict[str, Any] = {EXTENSION: {}}
ANSWER_MARGIN_S = 2.0


class TaskMethods:
    def __init__(self, tasks: TaskCalls, page_size: int, result_wait_s: float) -> None:
        self._tasks = tasks
        self._page_size = page_size
        self._wait = result_wait_s

    def legacy_handlers(self) -> dict[str, Callable[[RequestContext, dict[str, Any]], dict[str, Any]]]:
        return {
            "tasks/get": self.legacy_get,
            "tasks/result": self.legacy_result,
            "tasks/list": self.legacy_list,
            "tasks/cancel": self.legacy_cancel,
        }

    def modern_handlers(self) -> dict[str, Callable[[RequestContext, dict[str, Any]], dict[str, Any]]]:
        return {"tasks/get": self.modern_get, "tasks/cancel": self.modern_cancel, "tasks/update": self.modern_update}

    # -- tools/call

    def start(self, ex: RequestContext, spec: ToolSpec, params: dict[str, Any]) -> dict[str, Any] | None:
        """The task answer to a `tools/call`, or None when this call runs synchronously."""
        if ex.modern:
            if spec.task_support == "forbidden":
                return None
            if not _declares_extension(params):
                if spec.task_support == "required":
                    raise _missing_capability(f"{spec.name} runs only as a task")
                return None
            outcome = self._tasks.create(spec, ex, params.get("arguments"), clamp_ttl_ms(None))
            return {**modern_task(outcome), "resultType": "task"} if isinstance(outcome, TaskRecord) else outcome
        task = params.get("task")
        if task is None:
            if spec.task_support == "required":
                raise JsonRpcError(METHOD_NOT_FOUND, f"{spec.name} must be called as a task (params.task)")
            return None
        if not isinstance(task, dict):
            # Task metadata is an object; a `"task": true` or `"yes"` asks for no ttl the router could read.
            raise JsonRpcError(INVALID_PARAMS, 'params.task must be an object (task metadata, e.g. {"ttl": 600000})')
        if spec.task_support == "forbidden":
            raise JsonRpcError(METHOD_NOT_FOUND, f"{spec.name} does not support task-augmented calls")
        outcome = self._tasks.create(spec, ex, params.get("arguments"), clamp_ttl_ms(task.get("ttl")))
        if not isinstance(outcome, TaskRecord):
            return outcome  # ended before it became a task (bad arguments, no credits): the plain result
        return {"task": legacy_task(outcome)}

    # -- 2025-11-25

    def legacy_get(self, ex: RequestContext, params: dict[str, Any]) -> dict[str, Any]:
        return legacy_task(self._tasks.find(ex.principal, params.get("taskId")))

    def legacy_result(self, ex: RequestContext, params: dict[str, Any]) -> dict[str, Any]:
        # Wait no longer than the router itself may: its deadline, less time to answer.
        seconds = min(self._wait, ex.deadline_epoch - time.time() - ANSWER_MARGIN_S)
        task = self._tasks.wait(ex.principal, params.get("taskId"), seconds)
        if not task.status.terminal:
            raise JsonRpcError(
                INTERNAL_ERROR,
                f"task still {task.status} after {max(seconds, 0):.0f} s; poll tasks/get and ask again",
                data={"taskId": task.task_id, "status": str(task.status)},
            )
        result = dict(task.result or {})
        result["_meta"] = {**result.get("_meta", {}), RELATED_TASK_META: {"taskId": task.task_id}}
        return result

    def legacy_list(self, ex: RequestContext, params: dict[str, Any]) -> dict[str, Any]:
        records, next_cursor = self._tasks.list(ex.principal, params.get("cursor"), self._page_size)
        result: dict[str, Any] = {"tasks": [legacy_task(t) for t in records]}
        if next_cursor:
            result["nextCursor"] = next_cursor
        return result

    def legacy_cancel(self, ex: RequestContext, params: dict[str, Any]) -> dict[str, Any]:
        return legacy_task(self._tasks.cancel(ex.principal, params.get("taskId")))

    # -- 2026-07-28 extension

    def modern_get(self, ex: RequestContext, params: dict[str, Any]) -> dict[str, Any]:
        _require_extension(params)
        return modern_task(self._tasks.find(ex.principal, params.get("taskId")))

    def modern_cancel(self, ex: RequestContext, params: dict[str, Any]) -> dict[str, Any]:
        _require_extension(params)
        task = self._tasks.find(ex.principal, params.get("taskId"))
        if not task.status.terminal:
            try:
                self._tasks.cancel(ex.principal, task.task_id)
            except JsonRpcError:
                pass  # it ended meanwhile; cancellation is cooperative, the answer is an acknowledgement all the same
        return {}

    def modern_update(self, ex: RequestContext, params: dict[str, Any]) -> dict[str, Any]:
        """No platform tool asks for input, so no key is ever outstanding: responses are ignored, as specified."""
        _require_extension(params)
        self._tasks.find(ex.principal, params.get("taskId"))
        return {}


def _task_fields(task: TaskRecord) -> dict[str, Any]:
    fields: dict[str, Any] = {"taskId": task.task_id, "status": str(task.status)}
    if task.status_message:
        fields["statusMessage"] = task.status_message
    fields["createdAt"] = iso(task.created_at)
    fields["lastUpdatedAt"] = iso(task.updated_at)
    return fields


def legacy_task(task: TaskRecord) -> dict[str, Any]:
    """A 2025-11-25 `Task`: a tool result with `isError` is status `failed` there."""
    wire = _task_fields(task)
    if task.status is TaskStatus.COMPLETED and task.result and task.result.get("isError"):
        wire["status"] = str(TaskStatus.FAILED)
    wire["ttl"] = task.ttl_ms
    wire["pollInterval"] = task.poll_interval_ms
    return wire


def modern_task(task: TaskRecord) -> dict[str, Any]:
    """A 2026-07-28 `DetailedTask`: the result inlined when completed, the JSON-RPC error when failed."""
    wire = _task_fields(task)
    wire["ttlMs"] = task.ttl_ms
    wire["pollIntervalMs"] = task.poll_interval_ms
    if task.status is TaskStatus.COMPLETED and task.result is not None:
        wire["result"] = {**task.result, "resultType": "complete"}
    elif task.status is TaskStatus.FAILED:
        detail = (task.result or {}).get("structuredContent")
        wire["error"] = {"code": INTERNAL_ERROR, "message": task.status_message, "data": detail}
    return wire


def _declares_extension(params: dict[str, Any]) -> bool:
    meta = params.get("_meta")
    capabilities = meta.get(CLIENT_CAPABILITIES_META) if isinstance(meta, dict) else None
    extensions = capabilities.get("extensions") if isinstance(capabilities, dict) else None
    return isinstance(extensions, dict) and EXTENSION in extensions


def _require_extension(params: dict[str, Any]) -> None:
    if not _declares_extension(params):
        raise _missing_capability("tasks/* methods need the tasks extension")


def _missing_capability(why: str) -> JsonRpcError:
    return JsonRpcError(
        MISSING_REQUIRED_CLIENT_CAPABILITY,
        f"Missing required client capability: {why}; declare {EXTENSION} in io.modelcontextprotocol/clientCapabilities",
        data={"requiredCapabilities": {"extensions": {EXTENSION: {}}}},
    )
