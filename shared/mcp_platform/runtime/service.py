"""The service side of a tool call: from invoke payload to `ServiceReply`.

A service Lambda is `ServiceApp(service, {tool_name: implementation})` and its
handler is `app.lambda_handler`: the platform's entry pipeline (`entry.py`) over
one parse of the `ServiceRequest`. The app re-validates arguments against the
registry's input model (the router already did; a service never trusts its
input to have come from a current router), runs the implementation, and turns
every failure into the handler error object: a service never raises to the
Lambda runtime, so the router never sees a traceback.
"""

from __future__ import annotations

import functools
import importlib
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError

from mcp_platform.catalogue.registry import Registry, ToolSpec, load_registry
from mcp_platform.protocol.errors import ErrorCode, ToolError, error_object
from mcp_platform.protocol.payloads import REPLY_MARGIN_S, ServiceReply, ServiceRequest
from mcp_platform.runtime.entry import lambda_entry
from mcp_platform.runtime.observability import logger
from mcp_platform.runtime.settings import FunctionSettings, StagingSettings
from mcp_platform.web.addresses import AddressPolicy, apply_policy


@dataclass(frozen=True)
class ServiceContext:
    """Who is calling: handed to every implementation beside its arguments."""

    account_id: str
    request_id: str
    balance: int | None = None
    """The caller's credits before this call; set only for tools declaring `needs_balance`."""
    deadline_epoch: float | None = None
    """Wall-clock epoch seconds (`time.time()`) by which the implementation should have returned, if known:
    the router's `ServiceRequest.deadline_epoch`, or sooner when this function's own time ends first."""
    in_task: bool = False
    """The call runs as a durable task: no client is waiting on the connection, time caps may be longer."""
    cancelled: Callable[[], bool] = field(default=lambda: False)
    """True once the call's task was cancelled: long tools check it between steps and stop early."""
    staging_bucket: str = ""
    """Where this function stages files (its `STAGING_BUCKET` setting; `staging_store.store_for`); empty:
    staging is not configured for it."""

    def seconds_left(self, default: float = 30.0) -> float:
        return default if self.deadline_epoch is None else max(0.0, self.deadline_epoch - time.time())


@dataclass
class ToolOutput:
    """An implementation's result when it has more than `structuredContent` to say."""

    structured: dict[str, Any]
    content: list[dict[str, Any]] = field(default_factory=list)
    """Extra MCP content blocks after the text block, e.g. `{"type": "image", "data", "mimeType"}`."""
    waive_charge: bool = False
    """True for a successful answer that must cost nothing (the router refunds the reservation)."""


Implementation = Callable[[Any, ServiceContext], "dict[str, Any] | BaseModel | ToolOutput"]


def lazy(target: str) -> Implementation:
    """The tool function `"package.module:function"`, imported on the tool's first call.

    For a service whose tools each need a heavy library (dnspython, jsonschema, schwifty, ...): its cold
    start loads none of them, and a container loads only those of the tools it is asked for.
    """
    module, _, name = target.partition(":")

    @functools.cache
    def resolve() -> Implementation:
        function: Implementation = getattr(importlib.import_module(module), name)
        return function

    def call(arguments: Any, ctx: ServiceContext) -> dict[str, Any] | BaseModel | ToolOutput:
        return resolve()(arguments, ctx)

    return call


class ServiceApp:
    """Runs the tools of one service.

    `settings` are the function's settings (parsed at cold start: app.py builds the app at
    import); without them the Globals are parsed, so every function checks its environment.

    Examples:
        >>> app = ServiceApp("hello", {"hello_ping": ping})
        >>> app = ServiceApp("staging", {...}, settings=StagingSettings.from_env())
        >>> handler = app.lambda_handler
    """

    def __init__(
        self,
        service: str,
        implementations: Mapping[str, Implementation],
        registry: Registry | None = None,
        settings: FunctionSettings | None = None,
    ) -> None:
        self.settings = settings if settings is not None else FunctionSettings.from_env()
        """The function's settings, parsed now: at import, which is the Lambda cold start."""
        apply_policy(AddressPolicy.of(self.settings))
        self.staging_bucket = self.settings.staging_bucket if isinstance(self.settings, StagingSettings) else ""
        """Where this function stages files (`ServiceContext.staging_bucket`); empty: it stages none."""
        registry = registry or load_registry([service])
        specs = {spec.name: spec for spec in registry.for_service(service)}
        if missing := sorted(set(specs) - set(implementations)):
            raise ValueError(f"service {service!r} has no implementation for {missing}")
        if unknown := sorted(set(implementations) - set(specs)):
            raise ValueError(f"service {service!r} implements tools it does not declare: {unknown}")
        self.service = service
        self._tools: dict[str, tuple[ToolSpec, Implementation]] = {
            name: (specs[name], impl) for name, impl in implementations.items()
        }
        # In `make dev` every service runs inside the router's process: its log keys stay in its thread.
        self.lambda_handler = lambda_entry(self._invocation, shares_process=True)

    def handle(self, payload: Mapping[str, Any], context: ServiceContext | None = None) -> ServiceReply:
        """Run one call. Never raises: every failure is an error object in the reply."""
        try:
            request = ServiceRequest.model_validate(payload)
        except ValidationError as exc:
            return _malformed(exc)
        return self.run(request, context)

    def run(self, request: ServiceRequest, context: ServiceContext | None = None) -> ServiceReply:
        """Run one parsed call (`context`: from the request when not given). Never raises."""
        entry = self._tools.get(request.tool)
        if entry is None:
            return _error(f"{self.service} has no tool {request.tool!r}", ErrorCode.NOT_FOUND)
        spec, implementation = entry
        ctx = context or ServiceContext(
            account_id=request.account_id,
            request_id=request.request_id,
            balance=request.balance,
            deadline_epoch=request.deadline_epoch,
            staging_bucket=self.staging_bucket,
        )
        try:
            arguments = spec.validate(request.arguments)
            return _reply(implementation(arguments, ctx))
        except ToolError as exc:
            logger.info("tool error", extra={"tool": spec.name, "code": exc.code})
            return ServiceReply(structured_content=exc.to_object())
        except Exception:
            # The traceback goes to the log (without argument values), never to the caller.
            logger.exception("tool crashed", extra={"tool": spec.name})
            return _error(f"{spec.name} failed unexpectedly; the call was not charged", ErrorCode.INTERNAL)

    def _invocation(self, event: dict[str, Any], context: Any) -> dict[str, Any]:
        """One Lambda invocation: the payload parsed once, then the call (or the task) it asks for."""
        try:
            request = ServiceRequest.model_validate(event)
        except ValidationError as exc:
            if event.get("task_id"):
                raise  # a failed task invocation goes to the on-failure destination, which fails the task
            return _malformed(exc).model_dump(mode="json")
        ends_by = time.time()  # without a Lambda context (in process): a task starts if its deadline is ahead
        deadline = request.deadline_epoch
        if context is not None and hasattr(context, "get_remaining_time_in_millis"):
            seconds = context.get_remaining_time_in_millis() / 1000
            ends_by += seconds
            if not request.task_id:
                # A task-capable service's function outlives a synchronous call: the router waits only this long.
                seconds = min(seconds, self.settings.service_timeout_seconds)
            own = time.time() + seconds - REPLY_MARGIN_S
            deadline = own if deadline is None else min(deadline, own)
        cancelled: Callable[[], bool] = _never_cancelled
        if request.task_id:  # the task store's modules load for a task run only, not with every service's init
            from mcp_platform.durable_tasks import worker

            store = worker.task_store(self.settings)
            cancelled = worker.cancel_probe(store, request.task_id)
        ctx = ServiceContext(
            account_id=request.account_id,
            request_id=request.request_id,
            balance=request.balance,
            deadline_epoch=deadline,
            in_task=bool(request.task_id),
            cancelled=cancelled,
            staging_bucket=self.staging_bucket,
        )
        logger.thread_safe_append_keys(
            tool=request.tool, request_id=request.request_id, correlation_id=request.request_id, task_id=request.task_id
        )
        if request.task_id:
            return worker.run_task(request, lambda: self.run(request, ctx), store, ends_by)
        return self.run(request, ctx).model_dump(mode="json")


def _never_cancelled() -> bool:
    return False


def _reply(result: dict[str, Any] | BaseModel | ToolOutput) -> ServiceReply:
    if isinstance(result, ToolOutput):
        return ServiceReply(
            structured_content=result.structured, content=result.content, waive_charge=result.waive_charge
        )
    if isinstance(result, BaseModel):
        return ServiceReply(structured_content=_dump(result))
    return ServiceReply(structured_content=result)


def _dump(model: BaseModel) -> dict[str, Any]:
    """The output model as JSON: an unset optional field is absent, a required one stays, null included.

    The published outputSchema (`schema.output_schema`) makes a field defaulting to None optional and
    not nullable, so its None is left out; a field without a default is required there, and `X | None`
    admits null: dropping that None too would break the schema the tool publishes.
    """
    data: dict[str, Any] = model.model_dump(mode="json", exclude_none=True)
    for name, info in type(model).model_fields.items():
        if info.is_required() and not info.exclude and getattr(model, name) is None:
            data[name] = None
    return data


def _malformed(exc: ValidationError) -> ServiceReply:
    return _error(f"malformed service payload: {exc.error_count()} problem(s)", ErrorCode.INTERNAL)


def _error(message: str, code: str) -> ServiceReply:
    return ServiceReply(structured_content=error_object(message, code))
