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

    def call(self, ctx: CallContext, params: dict[str, Any]) -> dict[str, Any]:
        name = params.get("name")
        spec = self._registry.get(name) if isinstance(name, str) else None
        if spec is None or not self.visible(spec, ctx.principal):
            raise JsonRpcError(INVALID_PARAMS, f"Unknown tool: {name}")
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
        if raw_arguments is not None and not isinstance(raw_arguments, dict):
            return _error_reply("invalid arguments: `arguments` must be an object", ErrorCode.INVALID_ARGUMENTS), 0
        try:
            arguments = spec.validate(raw_arguments)
        except ToolError as exc:
            return ServiceReply(structured_content=exc.to_object()), 0
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
                ), 0
            except IdempotentReplayError as exc:
                if exc.result is None:
                    return _error_reply(
                        "this call already completed and was charged; its result was too large to keep for replay",
                        ErrorCode.INTERNAL,
                    ), 0
                return ServiceReply.model_validate(exc.result), 0
            except IdempotencyConflictError as exc:
                return _error_reply(str(exc), ErrorCode.RATE_LIMITED), 0
            except Exception:
                # The store is unreachable: nothing was taken, the service is not called.
                logger.exception("billing store unavailable", extra={"tool": spec.name})
                return _error_reply(
                    "billing is unavailable right now; nothing was charged, retry shortly",
                    ErrorCode.UPSTREAM_UNAVAILABLE,
                ), 0
        request = ServiceRequest(
            tool=spec.name,
            arguments=validated,
            account_id=account_id,
            request_id=ctx.request_id,
            balance=balance,
        )
        try:
            reply = self._invoker.invoke(spec.service, request)
        except Exception:
            # Invokers turn failures into replies; this guard keeps a bug there from costing credits.
            logger.exception("invoker raised", extra={"tool": spec.name})
            reply = _error_reply(f"{spec.service}: the service could not be reached", ErrorCode.UPSTREAM_UNAVAILABLE)
        if charge is None:
            return reply, 0
        return self._settle(charge, reply)

    def _settle(self, charge: Charge, reply: ServiceReply) -> tuple[ServiceReply, int]:
        if reply.is_error or reply.waive_charge:
            try:
                self._ledger.refund(charge, "error result" if reply.is_error else "waived by the service")
            except Exception:
                # The charge stands until reconciled: say which one, loudly, for the operator.
                logger.exception(
                    "refund failed; reconcile this charge",
                    extra={"account_id": charge.account_id, "entry_id": charge.entry_id, "amount": charge.amount},
                )
            return reply.model_copy(
                update={"structured_content": {**reply.structured_content, "credits_charged": 0}}
            ), 0
        structured = {
            **reply.structured_content,
            "credits_charged": charge.amount,
            "credits_balance": self._ledger.balance(charge.account_id),
        }
        billed = reply.model_copy(update={"structured_content": structured})
        self._ledger.settle(charge, billed.model_dump(mode="json"))
        return billed, charge.amount


def _error_reply(message: str, code: str, **extra: Any) -> ServiceReply:
    return ServiceReply(structured_content=error_object(message, code, **extra))
