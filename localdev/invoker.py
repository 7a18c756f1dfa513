"""Service handlers run in-process, loaded exactly as template.yaml wires them.

Each call goes through the real Lambda handler with a Lambda-like context and
a JSON round trip of payload and reply, so what works here works in Lambda.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from localdev import environment, template
from localdev.context import LambdaContext
from mcp_platform.errors import ErrorCode
from mcp_router.invoker import failed, parse_reply

if TYPE_CHECKING:
    from mcp_platform.dispatch import ServiceReply, ServiceRequest


def _load(wiring: template.FunctionWiring) -> Any:
    """Import the handler (its cold start: settings are parsed then) with only its own environment."""
    with environment.isolated(wiring):
        return wiring.load_handler()


class InProcessInvoker:
    def __init__(self, timeout_s: float = 25.0) -> None:
        self._handlers = {service: _load(wiring) for service, wiring in template.service_functions().items()}
        self._timeout = timeout_s

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
