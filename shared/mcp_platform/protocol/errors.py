"""The handler error object and the registry of its codes: the one way a tool reports failure.

Every failure a caller can act on (bad arguments, not found, no credits, a backend
down) is a *result*, not a JSON-RPC error: `{error, is_error: true, code, ...}`
as seed 000 defines it, so a model can read the message and correct itself.
`ERRORS` lists every code with whether retrying the same call can help and what
it means; `docs://errors` publishes it, and the tests hold every code raised in
the tree to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class ErrorCode(StrEnum):
    """Stable, machine-readable error codes. Clients may switch on these."""

    INVALID_ARGUMENTS = "invalid_arguments"
    NOT_FOUND = "not_found"
    INSUFFICIENT_CREDITS = "insufficient_credits"
    UPSTREAM_UNAVAILABLE = "upstream_unavailable"
    RATE_LIMITED = "rate_limited"
    INTERNAL = "internal"
    IDEMPOTENCY_CONFLICT = "idempotency_conflict"
    CALL_IN_PROGRESS = "call_in_progress"
    CANCELLED = "cancelled"


@dataclass(frozen=True)
class ErrorSpec:
    code: str
    retryable: bool
    """True when sending the same call again later can succeed (nothing about the call itself is wrong)."""
    meaning: str


ERRORS: dict[str, ErrorSpec] = {
    spec.code: spec
    for spec in (
        ErrorSpec(
            "invalid_arguments", False, "The arguments break the tool's input schema; the message names the field."
        ),
        ErrorSpec("not_found", False, "Nothing matches what was asked for (an id, a name, a staged file)."),
        ErrorSpec("insufficient_credits", False, "The balance is below the tool's price; nothing was charged."),
        ErrorSpec("upstream_unavailable", True, "A backend or the billing store did not answer; nothing was charged."),
        ErrorSpec("rate_limited", True, "A backend is rate-limiting or busy; retry after a pause."),
        ErrorSpec("internal", False, "The service failed unexpectedly; nothing was charged. Report it if it persists."),
        ErrorSpec(
            "idempotency_conflict",
            False,
            "The Idempotency-Key was used for another tool or other arguments (or its result is too large to "
            "replay); send a new key for a new call.",
        ),
        ErrorSpec(
            "call_in_progress",
            True,
            "A call with this Idempotency-Key is still running; retrying shortly replays its result.",
        ),
        ErrorSpec("cancelled", False, "The call ran as a task and was cancelled (tasks/cancel); nothing was charged."),
        ErrorSpec("provider_not_configured", False, "The deployment lacks a setting this tool needs (named)."),
        ErrorSpec("url_not_allowed", False, "The URL or the address it resolves to is refused (SSRF rules)."),
        ErrorSpec("robots_disallowed", False, "The site's robots.txt forbids fetching this URL."),
        ErrorSpec(
            "robots_unreachable",
            True,
            "The site's robots.txt could not be read (DNS, connect, timeout or 5xx); RFC 9309 says not to fetch "
            "until it can be. Nothing was charged; retry later.",
        ),
        ErrorSpec(
            "too_large", False, "The resource exceeds the tool's size limit, or a task's result what a task can keep."
        ),
        ErrorSpec("too_many_redirects", False, "The URL redirects more often than allowed."),
        ErrorSpec("timeout", True, "The site did not answer in time."),
        ErrorSpec("http_error", False, "The site answered 4xx/5xx; `status` carries the code (5xx may pass)."),
        ErrorSpec("pdf_use_docs", False, "A PDF or office document: call docs_extract instead."),
        ErrorSpec("unsupported_content_type", False, "The resource's content type is not one this tool reads."),
        ErrorSpec("no_content", False, "The page has no extractable text."),
        ErrorSpec("no_text", False, "The document has no extractable text (a scan without a text layer)."),
        ErrorSpec("pdf_encrypted", False, "The PDF is password-protected."),
        ErrorSpec("preview_required", False, "A preview tool or option; this deployment has preview tools off."),
        ErrorSpec("server_misconfigured", False, "The research backend is not configured on this deployment."),
    )
}


class ToolError(Exception):
    """Raised by tool logic; becomes the handler error object in the result.

    `code` is one of `ERRORS` (the tests hold every code in the tree to it);
    `extra` adds machine-readable fields, any name allowed but `is_error`:
    `message` and `code` are positional-only, so a contract whose error object
    has a field named `message` (seed 004's `toolError`) passes it as an extra
    like any other.

    Examples:
        >>> raise ToolError("url: only http and https are allowed", ErrorCode.INVALID_ARGUMENTS)
        >>> ToolError("deep is a preview", "preview_required", error="preview_required", message="...").to_object()
        {'error': 'preview_required', 'is_error': True, 'code': 'preview_required', 'message': '...'}
    """

    def __init__(self, message: str, code: str = ErrorCode.INTERNAL, /, **extra: Any) -> None:
        super().__init__(message)
        _refuse_is_error(extra)
        self.message = message
        self.code = str(code)
        self.extra = extra

    def to_object(self) -> dict[str, Any]:
        """The wire form: `{error, is_error: true, code, **extra}`."""
        return error_object(self.message, self.code, **self.extra)


def error_object(message: str, code: str = ErrorCode.INTERNAL, /, **extra: Any) -> dict[str, Any]:
    """Build the handler error object of seed 000 (`is_error` is always true).

    `extra` fields are added after `error` and `code`, so a contract may restate
    `error` (seed 004 puts its machine code there and the text in `message`);
    `is_error`, the one field billing trusts, can never be overridden.
    """
    _refuse_is_error(extra)
    return {"error": message, "is_error": True, "code": str(code), **extra}


def _refuse_is_error(extra: dict[str, Any]) -> None:
    if "is_error" in extra:
        raise TypeError("is_error is always true in an error object and cannot be passed as an extra field")
