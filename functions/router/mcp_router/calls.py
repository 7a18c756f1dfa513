"""`tools/call`: validate, price, reserve, invoke, settle or refund, shape the result.

This is the platform's one billing path. Arguments are validated before
anything is charged; the price is reserved atomically before the service
runs; an error reply, a waived charge or a failed invocation is refunded; a
retry with the same Idempotency-Key replays the first result uncharged.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import orjson

from mcp_platform.billing.ledger import (
    Charge,
    IdempotencyConflictError,
    IdempotencyKey,
    IdempotentReplayError,
    InsufficientCreditsError,
    Ledger,
)
from mcp_platform.dispatch import ServiceReply, ServiceRequest
from mcp_platform.errors import ErrorCode, ToolError, error_object
from mcp_platform.jsonrpc import INVALID_PARAMS, JsonRpcError
from mcp_platform.mcp import tool_result
from mcp_platform.observability import logger
from mcp_router.telemetry import record_call

if TYPE_CHECKING:
    from mcp_platform.registry import Registry, ToolSpec
    from mcp_router.auth import Principal
    from mcp_router.invoker import Invoker


@dataclass(frozen=True)
class CallContext:
    principal: Principal
    request_id: str
    rpc_id: Any
    idempotency_header: str | None = None


class ToolCaller:
    def __init__(self, registry: Registry, ledger: Ledger, invoker: Invoker, preview_tools: bool = False) -> None:
        self._registry = registry
        self._ledger = ledger
        self._invoker = invoker
        self._preview = preview_tools

    def visible(self, spec: ToolSpec, principal: Principal) -> bool:
        """Whether `principal` may see and call `spec` (approved service; preview only when enabled)."""
        return spec.service in principal.account.services and (self._preview or not spec.preview)

    def tool(self, ctx: CallContext, params: dict[str, Any]) -> ToolSpec:
        """The tool `params.name` names, if the caller may use it; else -32602."""
        name = params.get("name")
        spec = self._registry.get(name) if isinstance(name, str) else None
        if spec is None or not self.visible(spec, ctx.principal):
            raise JsonRpcError(INVALID_PARAMS, f"Unknown tool: {name}")
        return spec

    def call(self, ctx: CallContext, params: dict[str, Any]) -> dict[str, Any]:
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

    def _run(self, spec: ToolSpec, ctx: CallContext, raw_arguments: Any) -> tuple[ServiceReply, int]:
        reserved = self.reserve(spec, ctx, raw_arguments)
        if isinstance(reserved, ServiceReply):
            return reserved, 0
        try:
            reply = self._invoker.invoke(spec.service, reserved.request)
        except Exception:
            # Invokers turn failures into replies; this guard keeps a bug there from costing credits.
            logger.exception("invoker raised", extra={"tool": spec.name})
            reply = _error_reply(f"{spec.service}: the service could not be reached", ErrorCode.UPSTREAM_UNAVAILABLE)
        if reply.structured_content.get("timed_out") is True and spec.task_support != "forbidden":
            reply = _task_hint(spec, reply)
        if reserved.charge is None:
            return reply, 0
        billed, charged = self.bill(reserved.charge, reply)
        self.close(reserved.charge, billed)
        return billed, charged

    def reserve(self, spec: ToolSpec, ctx: CallContext, raw_arguments: Any) -> Reserved | ServiceReply:
        """Validate, price and reserve: the call ready to run, or the reply that ends it here (never charged)."""
        if raw_arguments is not None and not isinstance(raw_arguments, dict):
            return _error_reply("invalid arguments: `arguments` must be an object", ErrorCode.INVALID_ARGUMENTS)
        try:
            arguments = spec.validate(raw_arguments)
        except ToolError as exc:
            return ServiceReply(structured_content=exc.to_object())
        price = spec.price_for(arguments)
        account_id = ctx.principal.account_id
        validated = arguments.model_dump(mode="json", exclude_unset=True)
        charge: Charge | None = None
        # Read before reserving: the service sees the balance before this call, as ServiceRequest documents.
        balance = self._ledger.balance(account_id) if spec.needs_balance else None
        if price > 0:
            idempotency = None
            if ctx.idempotency_header:
                idempotency = IdempotencyKey.for_call(
                    account_id,
                    ctx.idempotency_header,
                    ctx.rpc_id,
                    spec.name,
                    orjson.dumps(validated, option=orjson.OPT_SORT_KEYS),
                )
            try:
                charge = self._ledger.reserve(
                    account_id, price, tool=spec.name, request_id=ctx.request_id, idempotency=idempotency
                )
            except InsufficientCreditsError as exc:
                return _error_reply(
                    f"insufficient credits: {spec.name} costs {price}, your balance is {exc.balance}",
                    ErrorCode.INSUFFICIENT_CREDITS,
                    price=price,
                    balance=exc.balance,
                )
            except IdempotentReplayError as exc:
                if exc.result is None:
                    return _error_reply(
                        "this call already completed and was charged; its result was too large to keep for replay",
                        ErrorCode.INTERNAL,
                    )
                return ServiceReply.model_validate(exc.result)
            except IdempotencyConflictError as exc:
                return _error_reply(str(exc), ErrorCode.RATE_LIMITED)
            except Exception:
                # The store is unreachable: nothing was taken, the service is not called.
                logger.exception("billing store unavailable", extra={"tool": spec.name})
                return _error_reply(
                    "billing is unavailable right now; nothing was charged, retry shortly",
                    ErrorCode.UPSTREAM_UNAVAILABLE,
                )
        request = ServiceRequest(
            tool=spec.name,
            arguments=validated,
            account_id=account_id,
            request_id=ctx.request_id,
            balance=balance,
        )
        return Reserved(request, charge)

    def bill(self, charge: Charge, reply: ServiceReply) -> tuple[ServiceReply, int]:
        """The reply as the caller sees it: billing fields added; an error or waived reply costs 0."""
        if reply.is_error or reply.waive_charge:
            return reply.model_copy(
                update={"structured_content": {**reply.structured_content, "credits_charged": 0}}
            ), 0
        structured = {
            **reply.structured_content,
            "credits_charged": charge.amount,
            "credits_balance": self._ledger.balance(charge.account_id),
        }
        return reply.model_copy(update={"structured_content": structured}), charge.amount

    def close(self, charge: Charge, billed: ServiceReply) -> None:
        """End the reservation as `bill` decided: refunded when nothing was charged, else settled."""
        if billed.structured_content.get("credits_charged") != 0:
            self._ledger.settle(charge, billed.model_dump(mode="json"))
            return
        reason = "error result" if billed.is_error else "waived by the service"
        self.refund(charge, reason)

    def refund(self, charge: Charge, reason: str) -> None:
        try:
            self._ledger.refund(charge, reason)
        except Exception:
            # The charge stands until reconciled: say which one, loudly, for the operator.
            logger.exception(
                "refund failed; reconcile this charge",
                extra={"account_id": charge.account_id, "entry_id": charge.entry_id, "amount": charge.amount},
            )


@dataclass(frozen=True)
class Reserved:
    """A validated call whose price (if any) is reserved: the service request and its charge."""

    request: ServiceRequest
    charge: Charge | None


def _task_hint(spec: ToolSpec, reply: ServiceReply) -> ServiceReply:
    """A task-capable tool that ran out of synchronous time: say how to run it as a task."""
    hint = (
        f" {spec.name} can run as a task, which has no such time limit: send params.task (protocol 2025-11-25) "
        "or declare the io.modelcontextprotocol/tasks extension (2026-07-28), then poll tasks/get."
    )
    content = reply.structured_content
    return reply.model_copy(update={"structured_content": {**content, "error": f"{content.get('error', '')}{hint}"}})


def _error_reply(message: str, code: str, **extra: Any) -> ServiceReply:
    return ServiceReply(structured_content=error_object(message, code, **extra))
