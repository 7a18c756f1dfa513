"""The router's domain layer: one `HttpRequest` in, one `HttpResponse` out.

No ASGI, no Lambda event: `asgi.py` adapts HTTP to this, and the tests drive it
directly. The flow for `POST /mcp` is the transport table (`transport.py`),
then authentication and the rate limit, then JSON-RPC: a single message or a
batch, notifications answered with 202, requests dispatched to `Methods`.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import orjson

from mcp_platform.billing.usage import MemoryLedgerHistory
from mcp_platform.catalogue import discovery, generated_docs
from mcp_platform.catalogue.profiles import ALL, connection_profile
from mcp_platform.outbound.provider_status import provider_status, providers_configured
from mcp_platform.protocol.ids import request_id as new_request_id
from mcp_platform.protocol.jsonrpc import (
    HEADER_MISMATCH,
    INTERNAL_ERROR,
    INVALID_PARAMS,
    MODERN_HTTP_STATUS,
    JsonRpcError,
    failure,
    is_request_id,
    success,
)
from mcp_platform.protocol.mcp import CLIENT_CAPABILITIES_META, PROTOCOL_VERSION_META
from mcp_platform.runtime.observability import log_context, logger
from mcp_router.auth import Principal, extract_key
from mcp_router.context import RequestContext
from mcp_router.credits import CreditResources
from mcp_router.headers import decode_header_value
from mcp_router.http import HttpRequest, HttpResponse
from mcp_router.meta_tools import MetaTools
from mcp_router.methods import Methods
from mcp_router.protected_resource import METADATA_CORS, METADATA_PATHS, ProtectedResource
from mcp_router.rate_units import USAGE_READ_UNITS, rate_units
from mcp_router.registration import PATH as REGISTER_PATH
from mcp_router.registration import Registrar
from mcp_router.task_wiring import settlement, task_methods
from mcp_router.tool_calls import ToolCaller
from mcp_router.transport import TRANSPORT_ERROR, check_http, invalid_request, parse_error, protocol_era

if TYPE_CHECKING:
    from collections.abc import Callable

    from mcp_router.dependencies import Dependencies

_NAME_PARAM = {
    "tools/call": "name",
    "resources/read": "uri",
    "prompts/get": "name",
    "tasks/get": "taskId",
    "tasks/update": "taskId",
    "tasks/cancel": "taskId",
}
"""Methods whose `Mcp-Name` header mirrors a body parameter (modern era)."""
_ROUTING_HEADERS = ("mcp-protocol-version", "mcp-method", "mcp-name")
_UNPARSABLE = object()


class Gateway:
    def __init__(self, deps: Dependencies) -> None:
        self._deps = deps
        self._settings = deps.settings
        calls = settlement(deps)
        caller = ToolCaller(
            deps.registry,
            calls,
            deps.invoker,
            preview_tools=deps.settings.enable_preview_tools,
            service_timeout_s=deps.settings.service_timeout_seconds,
            providers_configured=providers_configured(deps.settings),
            clock=deps.clock,
        )
        history = deps.history or MemoryLedgerHistory(deps.ledger)
        credit_resources = CreditResources(deps.ledger, history, deps.registry, deps.clock)
        tasks = task_methods(deps, caller, calls)
        self._methods = Methods(deps.registry, credit_resources, caller, deps.settings, tasks)
        self._pool = ThreadPoolExecutor(max_workers=8, thread_name_prefix="batch")
        self._resource = ProtectedResource(deps.settings, deps.registry.services)
        self._routes: dict[tuple[str, str], Callable[[HttpRequest], HttpResponse]] = {
            ("GET", "/health"): self._health,
            ("GET", "/llms.txt"): self._llms_txt,
            ("GET", "/.well-known/mcp"): self._well_known,
            ("GET", discovery.CARD_PATH): self._server_card,
            ("GET", discovery.CATALOG_PATH): self._catalog,
            **{("GET", path): self._resource_metadata for path in METADATA_PATHS},
            **{("OPTIONS", path): _metadata_preflight for path in METADATA_PATHS},
        }
        if deps.signups is not None and deps.signup_limiter is not None:
            registrar = Registrar(deps.signups, deps.signup_limiter, deps.settings)
            self._routes.update({(method, REGISTER_PATH): registrar.handle for method in ("POST", "GET")})

    def handle(self, request: HttpRequest) -> HttpResponse:
        # A fresh log context per request: no line names another request's call (issue 39).
        with log_context():
            try:
                if request.path.rstrip("/") == "/mcp":
                    return self._mcp(request)
                route = self._routes.get((request.method, request.path))
                if route is None and request.method == "GET" and request.path.startswith(discovery.ICON_PREFIX):
                    route = self._icon
                if route is None:
                    return HttpResponse.json({"error": "not found"}, 404)
                return route(request)
            except Exception:
                logger.exception("unhandled error in the gateway")
                return HttpResponse.rpc_error(500, JsonRpcError(INTERNAL_ERROR, "Internal error"))

    # -- plain HTTP endpoints

    def _health(self, _request: HttpRequest) -> HttpResponse:
        return HttpResponse.json(
            {
                "status": "ok",
                "version": self._settings.server_version,
                # What tools/list returns to an account approved for every service, tools_search included.
                "tools": sum(self._settings.enable_preview_tools or not spec.preview for spec in self._deps.registry)
                + len(MetaTools.listed(ALL)),
                "backends": provider_status(self._settings),
            }
        )

    def _llms_txt(self, _request: HttpRequest) -> HttpResponse:
        return HttpResponse.text(
            generated_docs.llms_txt(self._deps.registry, self._settings.public_url, self._signup_mode()),
            "text/plain; charset=utf-8",
        )

    def _well_known(self, request: HttpRequest) -> HttpResponse:
        well_known = generated_docs.well_known(
            self._deps.registry,
            self._settings.public_url,
            self._settings.server_name,
            self._settings.server_version,
            self._signup_mode(),
        )
        return HttpResponse.json({**well_known, "serverCard": f"{self._base_url(request)}{discovery.CARD_PATH}"})

    def _server_card(self, request: HttpRequest) -> HttpResponse:
        card = discovery.server_card(self._base_url(request), self._settings.server_name, self._settings.server_version)
        return _public(HttpResponse.json(card, headers={"content-type": discovery.CARD_MEDIA_TYPE}))

    def _catalog(self, request: HttpRequest) -> HttpResponse:
        return _public(HttpResponse.json(discovery.catalog(self._base_url(request), self._settings.server_name)))

    def _icon(self, request: HttpRequest) -> HttpResponse:
        service = request.path.removeprefix(discovery.ICON_PREFIX).removesuffix(".svg")
        if service not in {*self._deps.registry.services, discovery.PLATFORM_ICON}:
            return HttpResponse.json({"error": "not found"}, 404)
        return _public(HttpResponse.text(discovery.icon_svg(service), "image/svg+xml"))

    def _base_url(self, request: HttpRequest) -> str:
        """The deployment's public URL, or (when not configured) https:// and the Host the client used."""
        return self._settings.public_url or f"https://{request.header('host') or 'localhost'}"

    def _resource_metadata(self, request: HttpRequest) -> HttpResponse:
        return HttpResponse.json(self._resource.metadata(request), headers=METADATA_CORS)

    def _signup_mode(self) -> str:
        return self._settings.signup_mode if self._deps.signups is not None else "closed"

    # -- POST /mcp

    def _mcp(self, request: HttpRequest) -> HttpResponse:
        if rejection := check_http(request, self._settings):
            return rejection
        key = extract_key(request.header("authorization"), request.header("x-api-key"))
        principal = self._deps.authenticator.authenticate(key, self._resource.resource(request))
        if principal is None:
            return HttpResponse.rpc_error(
                401,
                JsonRpcError(
                    TRANSPORT_ERROR,
                    "Unauthorized: send a valid API key as Authorization: Bearer mcp_…, or an OAuth access token",
                ),
                headers={"www-authenticate": self._resource.challenge(request, key is not None)},
            )
        try:
            body: Any = orjson.loads(request.body)
        except orjson.JSONDecodeError:
            body = _UNPARSABLE
        limit = principal.account.rate_limit_per_minute or self._settings.rate_limit_per_minute
        units = rate_units(body, self._settings.max_batch_size)
        decision = self._deps.limiter.hit(principal.account_id, limit, units)
        rate_headers = decision.headers()
        if not decision.allowed:
            return HttpResponse.rpc_error(
                429,
                JsonRpcError(TRANSPORT_ERROR, _rate_message(units, limit, decision.remaining)),
                _request_id_of(body),
                headers={**rate_headers, "retry-after": str(decision.retry_after(self._deps.clock()))},
            )
        response = parse_error() if body is _UNPARSABLE else self._rpc(request, body, principal)
        response.headers.update(rate_headers)
        return response

    def _rpc(self, request: HttpRequest, body: Any, principal: Principal) -> HttpResponse:
        try:
            _version, modern = protocol_era(request)
            profile = connection_profile(request.query, principal.profile, self._deps.registry)
        except JsonRpcError as exc:
            return HttpResponse.rpc_error(400, exc, _request_id_of(body))
        request_id = new_request_id()
        logger.thread_safe_append_keys(request_id=request_id)
        deadline = request.deadline or self._deps.clock() + self._settings.router_timeout_seconds
        idempotency = request.header("idempotency-key") or None
        if isinstance(body, list):
            if modern or not body:
                why = "batches are not part of 2026-07-28" if body else "empty batch"
                return HttpResponse.rpc_error(400, invalid_request(why))
            if len(body) > self._settings.max_batch_size:
                why = f"a batch may hold at most {self._settings.max_batch_size} messages, this one has {len(body)}"
                return HttpResponse.rpc_error(400, invalid_request(why))
            # Members sharing the Idempotency-Key header are told apart by their JSON-RPC id.
            members = [
                (
                    m,
                    RequestContext(
                        principal,
                        False,
                        f"{request_id}-{i}",
                        rpc_id,
                        deadline,
                        _member_scope(idempotency, rpc_id),
                        profile,
                    ),
                )
                for i, m in enumerate(body)
                for rpc_id in (_request_id_of(m),)
            ]
            replies = list(self._pool.map(lambda pair: self._member(request, *pair), members))
            answers = [reply for reply, _status in replies if reply is not None]
            return HttpResponse.json(answers) if answers else HttpResponse(202)
        exchange = RequestContext(principal, modern, request_id, _request_id_of(body), deadline, idempotency, profile)
        reply, status = self._message(request, body, exchange)
        return HttpResponse(202) if reply is None else HttpResponse.json(reply, status)

    def _member(self, request: HttpRequest, message: Any, ex: RequestContext) -> tuple[dict[str, Any] | None, int]:
        """One batch member: whatever goes wrong stays its own error, never the whole batch's 500."""
        with log_context(request_id=ex.request_id):  # a pool thread: the request's context is not inherited
            try:
                return self._message(request, message, ex)
            except Exception:
                logger.exception("unhandled error in a batch member")
                return failure(ex.rpc_id, JsonRpcError(INTERNAL_ERROR, "Internal error")), 500

    def _message(self, request: HttpRequest, message: Any, ex: RequestContext) -> tuple[dict[str, Any] | None, int]:
        """One JSON-RPC message → (response or None for notifications/responses, HTTP status if alone)."""
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            return failure(ex.rpc_id, invalid_request("not a JSON-RPC 2.0 message")), 400
        method = message.get("method")
        if method is None:
            if "id" in message and ("result" in message or "error" in message):
                return None, 202  # a response from the client: nothing to answer
            return failure(ex.rpc_id, invalid_request("no method")), 400
        if not isinstance(method, str):
            return failure(ex.rpc_id, invalid_request("method must be a string")), 400
        if "id" not in message:
            return None, 202  # a notification
        if not is_request_id(message["id"]):
            return failure(None, invalid_request("id must be a string or an integer")), 400
        params = message.get("params", {})
        if not isinstance(params, dict):
            return failure(ex.rpc_id, invalid_request("params must be an object")), 400
        try:
            if ex.modern:
                _check_modern_envelope(request, method, params)
            return success(ex.rpc_id, self._methods.dispatch(ex, method, params)), 200
        except JsonRpcError as exc:
            status = MODERN_HTTP_STATUS.get(exc.code, 200) if ex.modern else 200
            return failure(ex.rpc_id, exc), status


def _public(response: HttpResponse) -> HttpResponse:
    """Discovery documents: readable from any origin and cacheable for an hour (the Server Card extension)."""
    response.headers.update({"access-control-allow-origin": "*", "cache-control": "public, max-age=3600"})
    return response


def _metadata_preflight(_request: HttpRequest) -> HttpResponse:
    """Browser-based clients (MCP Inspector) read the metadata cross-origin with an MCP-Protocol-Version header."""
    return HttpResponse(204, headers=dict(METADATA_CORS))


def _rate_message(units: int, limit: int, remaining: int) -> str:
    if units > limit:
        return f"Too Many Requests: this request takes {units} rate units, more than the {limit} per minute; split it"
    what = f"this request takes {units} and {remaining} are left" if units > 1 else "the limit is reached"
    return (
        f"Too Many Requests: {limit} rate units per minute (1 per message, {USAGE_READ_UNITS} per credits://usage "
        f"read), {what}; retry after the window resets"
    )


def _member_scope(header: str | None, rpc_id: Any) -> str | None:
    return f"{header}\x00{rpc_id!r}" if header else None


def _request_id_of(message: Any) -> Any:
    if isinstance(message, dict) and is_request_id(message.get("id")):
        return message["id"]
    return None


def _check_modern_envelope(request: HttpRequest, method: str, params: dict[str, Any]) -> None:
    """2026-07-28: `_meta` carries version and capabilities; routing headers mirror the body."""
    meta = params.get("_meta")
    if not isinstance(meta, dict):
        raise JsonRpcError(
            INVALID_PARAMS, f"params._meta must carry {PROTOCOL_VERSION_META} and {CLIENT_CAPABILITIES_META}"
        )
    if missing := [k for k in (PROTOCOL_VERSION_META, CLIENT_CAPABILITIES_META) if k not in meta]:
        raise JsonRpcError(INVALID_PARAMS, f"params._meta is missing: {', '.join(missing)}")
    if duplicated := [h for h in _ROUTING_HEADERS if h in request.duplicated_headers]:
        raise JsonRpcError(HEADER_MISMATCH, f"header {duplicated[0]} was sent more than once")
    if request.header("mcp-protocol-version") != meta[PROTOCOL_VERSION_META]:
        raise JsonRpcError(HEADER_MISMATCH, "MCP-Protocol-Version header does not match params._meta")
    if decode_header_value(request.header("mcp-method")) != method:
        raise JsonRpcError(HEADER_MISMATCH, "Mcp-Method header does not match the body's method")
    if (param := _NAME_PARAM.get(method)) is not None and decode_header_value(request.header("mcp-name")) != params.get(
        param
    ):
        raise JsonRpcError(HEADER_MISMATCH, f"Mcp-Name header does not match params.{param}")
