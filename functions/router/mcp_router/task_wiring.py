"""Build the task methods from the gateway's dependencies (or none when tasks are not configured)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcp_router.invoker import TaskStarter
from mcp_router.task_methods import TaskMethods
from mcp_router.tasks import Tasks

if TYPE_CHECKING:
    from mcp_platform.billing.lifecycle import Calls
    from mcp_router.calls import ToolCaller
    from mcp_router.gateway import Dependencies


def task_methods(deps: Dependencies, caller: ToolCaller, calls: Calls) -> TaskMethods | None:
    if deps.task_store is None or not isinstance(deps.invoker, TaskStarter):
        return None
    settings = deps.settings
    tasks = Tasks(caller, calls, deps.task_store, deps.invoker, settings.task_timeout_seconds, deps.clock, deps.sleep)
    return TaskMethods(tasks, settings.tools_page_size, settings.task_result_wait_seconds)
