"""`tools/call`: validate, price, reserve, invoke, settle or refund, shape the result.

The router's half of the platform's one billing path (`billing/lifecycle.py`
is the other). Arguments are validated before anything is charged; the price
is reserved before the service runs and the record's deadline is the router's
own; an error reply or a waived charge is refunded; a retry with the same
Idempotency-Key replays the first result uncharged. Whatever fails after the
reservation, the call ends settled or refunded here, or by the sweep at its
deadline, and the result says what stands.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson

from mcp_platform.billing.ledger import IdempotencyKey, InsufficientCreditsError
from mcp_platform.billing.lifecycle import (
    CallBilling,
    CallInProgressError,
    CallRecord,
    CallStart,
    CallState,
    ChargeNotRecordedError,
    IdempotencyConflictError,
    Replay,
)
from mcp_platform.catalogue.registry import NESTED_TOO_DEEPLY
from mcp_platform.oauth.scopes import service_scope
from mcp_platform.protocol.errors import ErrorCode, ToolError, error_object
from mcp_platform.protocol.jsonrpc import INVALID_PARAMS, JsonRpcError
from mcp_platform.protocol.mcp import tool_result
from mcp_platform.protocol.payloads import REPLY_MARGIN_S, ServiceReply, ServiceRequest
from mcp_platform.runtime.observability import logger
from mcp_router.telemetry import record_call

if TYPE_CHECKING:
    from collections.abc import Callable

    from pydantic import BaseModel

    from mcp_platform.catalogue.registry import Registry, ToolSpec
    from mcp_router.auth import Principal
    from mcp_router.context import RequestContext
    from mcp_router.invoker import Invoker

SETTLE_MARGIN_SECONDS = 2.0
"""Time kept back from the router's deadline to settle or refund after the service answers."""


MIN_INVOKE_SECONDS = 1.0
"""Below this much time left, a service is not started (a billed call would be refunded anyway)."""


class ToolCaller:
    def __init__(
        self,
        registry: Registry,
        calls: CallBilling,
        invoker: Invoker,
        *,
        preview_tools: bool = False,
        service_timeout_s: float = 25.0,
        providers_configured: bool = False,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._registry = registry
        self._calls = calls
        self._invoker = invoker
        self._preview = preview_tools
        self._service_timeout = service_timeout_s
        self._providers_configured = providers_configured
        """The deployment has a search provider and an LLM (`ToolSpec.free_without_providers`)."""
        self._clock = clock

    def visible(self, spec: ToolSpec, principal: Principal) -> bool:
        """Whether `principal` may see and call `spec` (approved service, within its scopes; preview if enabled)."""
        return spec.service in principal.services and (self._preview or not spec.preview)

    def callable(self, spec: ToolSpec, ctx: RequestContext) -> bool:
        """Whether this connection may call `spec`: visible to the caller and inside the connection's profile."""
        return self.visible(spec, ctx.principal) and ctx.profile.allows(spec)

    def tool(self, ctx: RequestContext, params: dict[str, Any]) -> ToolSpec:
        """The tool `params.name` names, if this connection may call it; else -32602 (nothing is charged)."""
        name = params.get("name")
        spec = self._registry.get(name) if isinstance(name, str) else None
        if spec is None or not self.visible(spec, ctx.principal):
            if spec is not None and spec.service in ctx.principal.account.services - ctx.principal.services:
                scope = service_scope(spec.service)
                raise JsonRpcError(
                    INVALID_PARAMS,
                    f"{name} needs the scope {scope}, which this access token was not granted; nothing was charged",
                    data={"required_scope": scope},
                )
            raise JsonRpcError(INVALID_PARAMS, f"Unknown tool: {name}")
        if not ctx.profile.allows(spec):
            raise JsonRpcError(
                INVALID_PARAMS,
                f"Tool {name} is not available on this connection ({ctx.profile.describe()}): its profile, "
                "from the URL or the key's default, leaves it out; nothing was charged",
                data={"tool": name, "profile": ctx.profile.describe()},
            )
        return spec

    def call(self, ctx: RequestContext, params: dict[str, Any]) -> dict[str, Any]:
        spec = self.tool(ctx, params)
        started = time.perf_counter()
        reply, charged = self._run(spec, ctx, params.get("arguments"))
        result = tool_result(reply)
        record_call(spec.service, spec.name, reply.is_error, (time.perf_counter() - started) * 1000, charged)
        logger.info(
            "tools/call",
            extra={
                "tool": spec.name,
                "account_id": ctx.principal.account_id,
                "outcome": reply.structured_content.get("code", "error") if reply.is_error else "ok",
                "credits": charged,
                "ms": round((time.perf_counter() - started) * 1000, 2),
            },
        )
        return result

    def _run(self, spec: ToolSpec, ctx: RequestContext, raw_arguments: Any) -> tuple[ServiceReply, int]:
        reserved = self.reserve(spec, ctx, raw_arguments, deadline=ctx.deadline_epoch)
        if isinstance(reserved, Replay):
            return replayed(reserved), 0
        if isinstance(reserved, ServiceReply):
            return reserved, 0
        reply = self._invoke(spec, reserved.request, ctx.deadline_epoch)
        if reply.structured_content.get("timed_out") is True and spec.task_support != "forbidden":
            reply = _task_hint(spec, reply)
        if reserved.record is None:
            return reply, 0
        return self.finish(reserved.record, reply)

    def reserve(
        self,
        spec: ToolSpec,
        ctx: RequestContext,
        raw_arguments: Any,
        *,
        deadline: float,
        origin: str = "call",
        request_id: str | None = None,
    ) -> Reserved | Replay | ServiceReply:
        """Validate, price and reserve until `deadline`: the call ready to run, its replay, or the reply ending it.

        A task reserves with its own deadline and `origin="task"`, and names its call by the task id
        (`request_id`), which is how the sweep finds the task behind an overdue reservation. A task
        does not wait for a running twin: its replay is the running task's handle (`{"task_id"}`).
        """
        if raw_arguments is not None and not isinstance(raw_arguments, dict):
            return _error_reply("invalid arguments: `arguments` must be an object", ErrorCode.INVALID_ARGUMENTS)
        try:
            arguments = spec.validate(raw_arguments)
            validated, arguments_json = _wire(arguments)
        except ToolError as exc:
            return ServiceReply(structured_content=exc.to_object())
        price = spec.price_for(arguments, providers_configured=self._providers_configured)
        account_id = ctx.principal.account_id
        # Read before reserving: the service sees the balance before this call, as ServiceRequest documents.
        balance = self._calls.ledger.balance(account_id) if spec.needs_balance else None
        request = ServiceRequest(
            tool=spec.name, arguments=validated, account_id=account_id, request_id=ctx.request_id, balance=balance
        )
        if price == 0:
            return Reserved(request, None)
        idempotency = None
        if ctx.idempotency_scope:
            idempotency = IdempotencyKey.for_call(account_id, ctx.idempotency_scope, spec.name, arguments_json)
        start = CallStart(account_id, spec.name, price, request_id or ctx.request_id, deadline, idempotency, origin)
        outcome = self._take(start, None if origin == "task" else ctx.deadline_epoch - SETTLE_MARGIN_SECONDS)
        return Reserved(request, outcome) if isinstance(outcome, CallRecord) else outcome

    def _take(self, start: CallStart, wait_until: float | None) -> CallRecord | Replay | ServiceReply:
        """`Calls.reserve`, or the reply that ends the call when it refuses (the reply says what stays charged)."""
        try:
            return self._calls.reserve(start, wait_until=wait_until)
        except InsufficientCreditsError as exc:
            return _error_reply(
                f"insufficient credits: {start.tool} costs {start.amount}, your balance is {exc.balance}",
                ErrorCode.INSUFFICIENT_CREDITS,
                price=start.amount,
                balance=exc.balance,
            )
        except IdempotencyConflictError as exc:
            return _error_reply(f"{exc}: send a new Idempotency-Key for a new call", ErrorCode.IDEMPOTENCY_CONFLICT)
        except CallInProgressError as exc:
            key = start.idempotency.key if start.origin == "task" and start.idempotency else None
            running = self._calls.ledger.get_call(key) if key else None
            if running is not None and running.origin == "task":
                return Replay({"task_id": running.request_id})
            return _error_reply(str(exc), ErrorCode.CALL_IN_PROGRESS)
        except ChargeNotRecordedError as exc:
            logger.exception("charge not recorded", extra=_charge_log(exc.record))
            return _unrecorded_reply(exc)
        except Exception:
            # The store failed: the service is not called, and any reservation it took ends at the deadline.
            logger.exception("billing store unavailable", extra={"tool": start.tool})
            return _error_reply(
                "billing is unavailable right now; the call did not run and nothing stays charged, retry shortly",
                ErrorCode.UPSTREAM_UNAVAILABLE,
            )

    def _invoke(self, spec: ToolSpec, request: ServiceRequest, deadline: float) -> ServiceReply:
        """Invoke with a timeout derived from the router's deadline, keeping time to settle or refund."""
        budget = min(self._service_timeout + 1, deadline - self._clock() - SETTLE_MARGIN_SECONDS)
        if budget < MIN_INVOKE_SECONDS:
            return _error_reply(
                f"{spec.service}: not enough time left in this request to run the tool; retry it",
                ErrorCode.UPSTREAM_UNAVAILABLE,
            )
        # The service's deadline is this instant less the time its reply needs to travel back.
        request = request.model_copy(update={"deadline_epoch": self._clock() + budget - REPLY_MARGIN_S})
        try:
            return self._invoker.invoke(spec.service, request, timeout_s=budget)
        except Exception:
            # Invokers turn failures into replies; this guard keeps a bug there from costing credits.
            logger.exception("invoker raised", extra={"tool": spec.name})
            return _error_reply(f"{spec.service}: the service could not be reached", ErrorCode.UPSTREAM_UNAVAILABLE)

    def finish(self, record: CallRecord, reply: ServiceReply) -> tuple[ServiceReply, int]:
        """Settle or refund `record`; the result states what stands, whichever store step fails."""
        if reply.is_error or reply.waive_charge:
            if self.refund(record, "error result" if reply.is_error else "waived by the service"):
                return with_credits(reply, 0), 0
            # The charge stands until the sweep refunds it at the deadline: say so, never "0".
            return with_credits(reply, record.amount, record.balance_after), record.amount
        billed = with_credits(reply, record.amount, record.balance_after)
        try:
            settled = self._calls.settle(record, billed.model_dump(mode="json"))
        except Exception:
            logger.exception("settle failed; refunding", extra=_charge_log(record))
            settled = False
        if settled:
            return billed, record.amount
        # Not settled (the store failed, or the sweep ended the call first): the result is free.
        if self.refund(record, "not settled: the result was delivered free"):
            return with_credits(reply, 0), 0
        return billed, record.amount

    def refund(self, record: CallRecord, reason: str) -> bool:
        """True when nothing stands: refunded now, or already refunded (by the sweep)."""
        try:
            if self._calls.refund(record, reason):
                return True
            current = self._calls.ledger.get_call(record.call_id)
        except Exception:
            logger.exception("refund failed; the sweep refunds this charge at its deadline", extra=_charge_log(record))
            return False
        return current is None or current.attempt != record.attempt or current.state is CallState.REFUNDED


@dataclass(frozen=True)
class Reserved:
    """A validated call whose price (if any) is reserved: the service request and its call record."""

    request: ServiceRequest
    record: CallRecord | None


def replayed(replay: Replay) -> ServiceReply:
    """What a replayed call answers: its stored result, or why there is none to give."""
    if replay.result is None:
        return _error_reply(
            "this call already completed and was charged; its result was too large to keep for replay",
            ErrorCode.IDEMPOTENCY_CONFLICT,
        )
    if "task_id" in replay.result:
        # The key started a durable task (a task's call stores only its id): its result is the task's.
        return _error_reply(
            f"this Idempotency-Key started task {replay.result['task_id']}; read its result with tasks/get "
            "(or tasks/result), or send a new key for a new call",
            ErrorCode.IDEMPOTENCY_CONFLICT,
            task_id=replay.result["task_id"],
        )
    return ServiceReply.model_validate(replay.result)


def _unrecorded_reply(exc: ChargeNotRecordedError) -> ServiceReply:
    """The call did not run because its charge could not be recorded: say what stays charged, and until when."""
    if not exc.held:
        why = "the call did not run and nothing stays charged (the charge was given back), retry shortly"
    else:
        until = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(exc.record.in_progress_until))
        why = (
            f"the call did not run; its {exc.held} credits stay charged until the reconciliation gives them back "
            f"after {until} (call {exc.record.call_id}), retry shortly"
        )
    return with_credits(
        _error_reply(f"billing is unavailable right now; {why}", ErrorCode.UPSTREAM_UNAVAILABLE), exc.held
    )


def _task_hint(spec: ToolSpec, reply: ServiceReply) -> ServiceReply:
    """A task-capable tool that ran out of synchronous time: say how to run it as a task."""
    hint = (
        f" {spec.name} can run as a task, which has no such time limit: send params.task (protocol 2025-11-25) "
        "or declare the io.modelcontextprotocol/tasks extension (2026-07-28), then poll tasks/get."
    )
    content = reply.structured_content
    return reply.model_copy(update={"structured_content": {**content, "error": f"{content.get('error', '')}{hint}"}})


def with_credits(reply: ServiceReply, charged: int, balance: int | None = None) -> ServiceReply:
    structured = {**reply.structured_content, "credits_charged": charged}
    if balance is not None:
        structured["credits_balance"] = balance
    return reply.model_copy(update={"structured_content": structured})


def _charge_log(record: CallRecord) -> dict[str, Any]:
    return {
        "account_id": record.account_id,
        "call_id": record.call_id,
        "entry_id": record.entry_id,
        "amount": record.amount,
    }


def _error_reply(message: str, code: str, **extra: Any) -> ServiceReply:
    return ServiceReply(structured_content=error_object(message, code, **extra))


def _wire(arguments: BaseModel) -> tuple[dict[str, Any], bytes]:
    """The validated arguments as the service gets them, and as sorted-key JSON (what an Idempotency-Key is held to).

    pydantic validates `Any` to any depth but serialises about 255 levels, and orjson stops at 254: deeper
    arguments are refused here, as pydantic refuses a deeper JSON value, and not only when a key is sent.
    """
    try:
        validated = arguments.model_dump(mode="json", exclude_unset=True)
        return validated, orjson.dumps(validated, option=orjson.OPT_SORT_KEYS)
    except (ValueError, orjson.JSONEncodeError):
        raise ToolError(f"invalid arguments: {NESTED_TOO_DEEPLY}", ErrorCode.INVALID_ARGUMENTS) from None
