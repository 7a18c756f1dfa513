"""Calling a service: `Invoke` (RequestResponse) on its Lambda, or in-process locally.

Whatever goes wrong on the way (the function errors, times out, is throttled
or returns garbage) comes back as a `ServiceReply` carrying an error object,
so the caller has one path: an error reply is refunded.
"""

from __future__ import annotations

import math
from functools import cache
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import orjson
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError, ReadTimeoutError
from pydantic import ValidationError

from mcp_platform.protocol.errors import ErrorCode, error_object
from mcp_platform.protocol.payloads import ServiceReply, ServiceRequest
from mcp_platform.runtime.observability import logger
from mcp_platform.storage.aws import configured_client, one_attempt

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from mcp_router.settings import RouterSettings


class Invoker(Protocol):
    def invoke(self, service: str, request: ServiceRequest, *, timeout_s: float | None = None) -> ServiceReply:
        """Run `request` on `service`, giving up after `timeout_s` (the caller's remaining budget)."""
        ...


@runtime_checkable
class TaskStarter(Protocol):
    def start(self, service: str, request: ServiceRequest) -> None:
        """Hand a task (`request.task_id` set) to its service and return at once; raise when it was not accepted."""
        ...


class TaskNotStartedError(Exception):
    """The asynchronous invoke was refused: the task never runs (the caller fails it and refunds)."""


@cache
def invoke_client(read_timeout: int) -> Any:
    """The container's Lambda client for a read timeout of `read_timeout` seconds (one per whole second).

    Exactly one attempt, for `RequestResponse` and `Event` alike: a retried Invoke runs a tool twice (or queues
    a task's event twice). Each call's read timeout is what the router has left (ToolCaller derives it from its
    deadline), at most the service's own + 1 s, so a timed-out Invoke leaves no time for a second one anyway.
    """
    return configured_client("lambda", Config(read_timeout=read_timeout, connect_timeout=2).merge(one_attempt()))


def failed(service: str, message: str, code: str = ErrorCode.UPSTREAM_UNAVAILABLE, **extra: Any) -> ServiceReply:
    return ServiceReply(
        structured_content=error_object(f"{service}: {message}; the call was not charged", code, **extra)
    )


def parse_reply(service: str, payload: Any) -> ServiceReply:
    try:
        return ServiceReply.model_validate(payload)
    except ValidationError:
        logger.error("service returned a malformed reply", extra={"service": service})
        return failed(service, "the service returned a malformed reply", ErrorCode.INTERNAL)


class LambdaInvoker:
    """Invokes `<SERVICE_FUNCTION_PREFIX><service>`, or `SERVICE_FUNCTION_<SERVICE>` when set.

    botocore sets the read timeout per client, so `client_for_timeout(seconds)`
    gives the client for a whole number of seconds (built once each); without
    it every invoke uses `client`.
    """

    def __init__(
        self,
        client: Any,
        prefix: str,
        overrides: Mapping[str, str] | None = None,
        client_for_timeout: Callable[[int], Any] | None = None,
    ) -> None:
        self._lambda = client
        self._prefix = prefix
        self._overrides = dict(overrides or {})
        self._client_for_timeout = client_for_timeout

    @classmethod
    def of(
        cls, client: Any, settings: RouterSettings, client_for_timeout: Callable[[int], Any] | None = None
    ) -> LambdaInvoker:
        """The invoker of the functions `settings` name (`service_function_prefix`, `service_functions`)."""
        return cls(client, settings.service_function_prefix, settings.service_functions, client_for_timeout)

    def function_name(self, service: str) -> str:
        return self._overrides.get(service, f"{self._prefix}{service}")

    def invoke(self, service: str, request: ServiceRequest, *, timeout_s: float | None = None) -> ServiceReply:
        client = self._lambda
        if timeout_s is not None and self._client_for_timeout is not None:
            client = self._client_for_timeout(max(1, math.floor(timeout_s)))
        try:
            response = client.invoke(
                FunctionName=self.function_name(service),
                InvocationType="RequestResponse",
                Payload=request.model_dump_json().encode(),
            )
        except ReadTimeoutError:
            return failed(service, "the service did not answer in time", timed_out=True)
        except ClientError as exc:
            code = exc.response.get("Error", {}).get("Code", "")
            logger.error("invoke failed", extra={"service": service, "aws_error": code})
            if code in ("TooManyRequestsException", "ThrottlingException"):
                return failed(service, "the service is busy, retry shortly", ErrorCode.RATE_LIMITED)
            return failed(service, "the service could not be reached")
        except BotoCoreError:
            logger.exception("invoke failed", extra={"service": service})
            return failed(service, "the service could not be reached")
        body = response["Payload"].read()
        if response.get("FunctionError"):
            logger.error("service function error", extra={"service": service, "kind": response["FunctionError"]})
            return failed(service, "the service failed", ErrorCode.INTERNAL)
        try:
            return parse_reply(service, orjson.loads(body))
        except orjson.JSONDecodeError:
            return failed(service, "the service returned a malformed reply", ErrorCode.INTERNAL)

    def start(self, service: str, request: ServiceRequest) -> None:
        """`InvocationType=Event`: Lambda queues the event (202) and runs it with the function's task timeout.

        The function's event-invoke config (template) allows no retry, so a tool never runs twice; an
        event that fails or ages out goes to the on-failure destination, which fails the task and refunds.
        """
        try:
            response = self._lambda.invoke(
                FunctionName=self.function_name(service),
                InvocationType="Event",
                Payload=request.model_dump_json().encode(),
            )
        except (ClientError, BotoCoreError) as exc:
            logger.error("task invoke failed", extra={"service": service, "task_id": request.task_id})
            raise TaskNotStartedError(f"{service}: the service could not be reached") from exc
        if response.get("StatusCode") != 202:
            raise TaskNotStartedError(f"{service}: the task was not accepted (status {response.get('StatusCode')})")
