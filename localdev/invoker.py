"""Service handlers run in-process, loaded exactly as template.yaml wires them.

Each call goes through the real Lambda handler with a Lambda-like context and
a JSON round trip of payload and reply, so what works here works in Lambda.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from localdev import environment, template
from localdev.context import LambdaContext
from mcp_platform.durable_tasks.failure import fail_task
from mcp_platform.protocol.errors import ErrorCode
from mcp_platform.runtime.observability import logger
from mcp_router.invoker import TaskNotStartedError, failed, parse_reply

if TYPE_CHECKING:
    from collections.abc import Callable

    from mcp_platform.billing.lifecycle import CallBilling
    from mcp_platform.durable_tasks.store import TaskStore
    from mcp_platform.protocol.payloads import ServiceReply, ServiceRequest


class InProcessInvoker:
    """Services in this process: `invoke` runs a handler inline, `start` runs a task on a worker thread.

    `start` is Lambda's asynchronous invoke with `MaximumRetryAttempts: 0`: the
    handler runs once, and when it raises, `on_failure` gets the payload and the
    reason, as the template's on-failure destination would.
    """

    def __init__(
        self,
        timeout_s: float = 25.0,
        task_timeout_s: float = 900.0,
        on_failure: Callable[[dict[str, Any], str], None] | None = None,
    ) -> None:
        self._handlers = environment.load_handlers(template.service_functions())
        self._timeout = timeout_s
        self._task_timeout = task_timeout_s
        self.on_failure = on_failure
        self._workers = ThreadPoolExecutor(max_workers=4, thread_name_prefix="task-worker")

    @property
    def services(self) -> list[str]:
        return sorted(self._handlers)

    def invoke(self, service: str, request: ServiceRequest, *, timeout_s: float | None = None) -> ServiceReply:
        handler = self._handlers.get(service)
        if handler is None:
            return failed(service, "no such service function")
        payload: dict[str, Any] = request.model_dump(mode="json")
        try:
            # ServiceApp replies are JSON-safe (model_dump(mode="json")), as Lambda requires.
            return parse_reply(
                service, handler(payload, LambdaContext(f"local-svc-{service}", timeout_s or self._timeout))
            )
        except Exception:  # what Lambda reports as FunctionError
            return failed(service, "the service failed", ErrorCode.INTERNAL)

    def start(self, service: str, request: ServiceRequest) -> None:
        handler = self._handlers.get(service)
        if handler is None:
            raise TaskNotStartedError(f"{service}: no such service function")
        payload: dict[str, Any] = request.model_dump(mode="json")
        self._workers.submit(self._run_task, handler, service, payload)

    def _run_task(self, handler: Callable[..., Any], service: str, payload: dict[str, Any]) -> None:
        try:
            handler(payload, LambdaContext(f"local-svc-{service}", self._task_timeout))
        except Exception as exc:  # what Lambda hands the on-failure destination
            logger.exception("task worker failed", extra={"task_id": payload.get("task_id")})
            if self.on_failure is not None:
                self.on_failure(payload, f"the service failed ({type(exc).__name__})")


def failure_sink(store: TaskStore, calls: CallBilling) -> Callable[[dict[str, Any], str], None]:
    """What the template's on-failure destination does with a failed task event, for the local worker."""

    def on_failure(payload: dict[str, Any], why: str) -> None:
        if isinstance(task_id := payload.get("task_id"), str):
            fail_task(store, calls, task_id, why)

    return on_failure
