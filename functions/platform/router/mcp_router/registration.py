"""`POST /api/auth/register`: agent self-service sign-up over plain HTTP.

Every refusal is a JSON-RPC-style error body (`{"jsonrpc", "id": null, "error":
{code, message, data: {reason}}}`), like the transport's own rejections, so
an agent reads every failure of this platform one way. Bad bodies are 400 (not
JSON, not an object) or 422 (fields, each named); nothing here is ever a 500
with a traceback.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import orjson
from pydantic import ValidationError

from mcp_platform.auth.accounts import SignupRefusedError
from mcp_platform.auth.signup import EmailTakenError, InviteRejectedError, SignupMode, SignupRequest
from mcp_platform.catalogue.registry import describe_validation_error
from mcp_platform.protocol.jsonrpc import INVALID_PARAMS, PARSE_ERROR, JsonRpcError
from mcp_platform.runtime.observability import logger
from mcp_router.http import HttpRequest, HttpResponse
from mcp_router.transport import TRANSPORT_ERROR

if TYPE_CHECKING:
    from collections.abc import Mapping

    from mcp_platform.auth.accounts import SignupDesk
    from mcp_platform.ratelimit.limiter import RateLimiter
    from mcp_router.settings import RouterSettings

PATH = "/api/auth/register"
MAX_BODY_BYTES = 4096


def _refusal(
    status: int, reason: str, message: str, code: int = TRANSPORT_ERROR, headers: Mapping[str, str] | None = None
) -> HttpResponse:
    return HttpResponse.rpc_error(status, JsonRpcError(code, message, data={"reason": reason}), headers=headers)


class Registrar:
    def __init__(self, desk: SignupDesk, limiter: RateLimiter, settings: RouterSettings) -> None:
        self._desk = desk
        self._limiter = limiter
        self._settings = settings

    def handle(self, request: HttpRequest) -> HttpResponse:
        if request.method != "POST":
            return _refusal(
                405, "method_not_allowed", "Method not allowed: POST a JSON body", headers={"allow": "POST"}
            )
        if self._desk.mode is SignupMode.CLOSED:
            return _refusal(403, "signup_closed", "Self-service sign-up is closed here; ask the operator for a key")
        signup = _parse(request)
        if isinstance(signup, HttpResponse):
            return signup
        limit = self._settings.signups_per_ip_per_hour
        decision = self._limiter.hit(f"signup#{request.client_ip or 'unknown'}", limit)
        if not decision.allowed:
            return _refusal(
                429,
                "rate_limited",
                f"Too Many Requests: {limit} sign-ups per hour from one address; retry later",
                headers={"retry-after": str(decision.retry_after())},
            )
        try:
            registration = self._desk.register(signup)
        except SignupRefusedError as exc:
            return _refusal(403, "invite_required", str(exc))
        except InviteRejectedError:
            return _refusal(403, "invite_rejected", "The invite code is unknown, used up, revoked or expired")
        except EmailTakenError:
            return _refusal(409, "email_taken", "An account with this email exists; use its API key")
        logger.info("sign-up", extra={"account_id": registration.account_id})
        return HttpResponse.json(
            {
                "account_id": registration.account_id,
                "api_key": registration.api_key,
                "balance": registration.balance,
                "services": sorted(registration.services),
                "endpoint": f"{self._settings.public_url}/mcp",
                "note": "The API key is shown once and only its hash is stored. "
                "Send it as Authorization: Bearer <key>.",
            },
            201,
            {"cache-control": "no-store"},
        )


def _parse(request: HttpRequest) -> SignupRequest | HttpResponse:
    """The validated body, or the 4xx that says what is wrong with it."""
    content_type = (request.header("content-type") or "").split(";", 1)[0].strip().lower()
    if content_type != "application/json":
        return _refusal(415, "unsupported_media_type", "Content-Type must be application/json")
    if len(request.body) > MAX_BODY_BYTES:
        return _refusal(413, "too_large", f"A sign-up body is a few fields; this one is over {MAX_BODY_BYTES} bytes")
    try:
        payload = orjson.loads(request.body)
    except orjson.JSONDecodeError:
        return _refusal(400, "invalid_json", "Parse error: the body is not valid JSON", PARSE_ERROR)
    if not isinstance(payload, dict):
        return _refusal(
            400, "invalid_body", 'The body must be a JSON object: {"email", "account_type": "agent"}', PARSE_ERROR
        )
    try:
        return SignupRequest.model_validate(payload)
    except ValidationError as exc:
        return _refusal(422, "invalid_fields", f"Invalid sign-up: {describe_validation_error(exc)}", INVALID_PARAMS)
