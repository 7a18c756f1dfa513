"""Service handlers run in-process, loaded exactly as template.yaml wires them.

Each call goes through the real Lambda handler with a Lambda-like context and
a JSON round trip of payload and reply, so what works here works in Lambda.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import orjson

from localdev import template
from mcp_platform.dispatch import ServiceReply, ServiceRequest
from mcp_platform.errors import ErrorCode

from mcp_router.invoker import failed, parse_reply


@dataclass
class LambdaContext:
    """The attributes of the Lambda runtime's context object that handlers and Powertools read."""

    function_name: str
    timeout_s: float = 25.0
    memory_limit_in_mb: int = 512
    aws_request_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    _started: float = field(default_factory=time.monotonic)

    @property
    def invoked_function_arn(self) -> str:
        return f"arn:aws:lambda:us-east-1:000000000000:function:{self.function_name}"

    def get_remaining_time_in_millis(self) -> int:
        return max(0, int((self.timeout_s - (time.monotonic() - self._started)) * 1000))


class InProcessInvoker:
    def __init__(self, timeout_s: float = 25.0) -> None:
        self._handlers = {service: wiring.load_handler() for service, wiring in template.service_functions().items()}
        self._timeout = timeout_s

    @property
    def services(self) -> list[str]:
        return sorted(self._handlers)

    def invoke(self, service: str, request: ServiceRequest) -> ServiceReply:
        handler = self._handlers.get(service)
        if handler is None:
            return failed(service, "no such service function")
        payload: dict[str, Any] = orjson.loads(request.model_dump_json())
        try:
            raw = handler(payload, LambdaContext(f"local-svc-{service}", self._timeout))
            return parse_reply(service, orjson.loads(orjson.dumps(raw)))
        except Exception:  # what Lambda reports as FunctionError
            return failed(service, "the service failed", ErrorCode.INTERNAL)
