"""Build the call settlement and the task methods from the gateway's dependencies (tasks: none if not configured)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcp_platform.billing.lifecycle import CallBilling
from mcp_platform.durable_tasks.sweep import task_resolver
from mcp_router.invoker import TaskStarter
from mcp_router.task_calls import TaskCalls
from mcp_router.task_methods import TaskMethods

if TYPE_CHECKING:
    from mcp_router.dependencies import Dependencies
    from mcp_router.tool_calls import ToolCaller


def settlement(deps: Dependencies) -> CallBilling:
    """The router's `Calls`: a retry that finds its call past the deadline asks the task store, as the sweep does."""
    resolver = task_resolver(deps.task_store) if deps.task_store is not None else None
    return CallBilling(deps.ledger, clock=deps.clock, sleep=deps.sleep, resolver=resolver)


def task_methods(deps: Dependencies, caller: ToolCaller, calls: CallBilling) -> TaskMethods | None:
    if deps.task_store is None or not isinstance(deps.invoker, TaskStarter):
        return None
    settings = deps.settings
    # A task's deadline covers the longest wait in Lambda's event queue and then the longest run.
    longest = settings.task_event_max_age_seconds + settings.task_timeout_seconds
    tasks = TaskCalls(caller, calls, deps.task_store, deps.invoker, longest, deps.clock, deps.sleep)
    return TaskMethods(tasks, settings.tools_page_size, settings.task_result_wait_seconds)
