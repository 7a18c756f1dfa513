"""The handler error object: the one way a tool reports failure.

Every failure a caller can act on (bad arguments, not found, no credits, a backend
down) is a *result*, not a JSON-RPC error: `{error, is_error: true, code, ...}`
as seed 000 defines it, so a model can read the message and correct itself.
"""

from __future__ import annotations

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


class ToolError(Exception):
    """Raised by tool logic; becomes the handler error object in the result.

    `code` is one of `ErrorCode` or a service-specific code (seed contracts add
    their own, e.g. `pdf_use_docs`); `extra` adds machine-readable fields, any
    name allowed: `message` and `code` are positional-only, so a contract whose
    error object has a field named `message` (seed 004's `toolError`) passes it
    as an extra like any other.

    Examples:
        >>> raise ToolError("url: only http and https are allowed", ErrorCode.INVALID_ARGUMENTS)
        >>> ToolError("deep is a preview", "preview_required", error="preview_required", message="...").to_object()
        {'error': 'preview_required', 'is_error': True, 'code': 'preview_required', 'message': '...'}
    """

    def __init__(self, message: str, code: str = ErrorCode.INTERNAL, /, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        self.code = str(code)
        self.extra = extra

    def to_object(self) -> dict[str, Any]:
        """The wire form: `{error, is_error: true, code, **extra}`."""
        return error_object(self.message, self.code, **self.extra)


def error_object(message: str, code: str = ErrorCode.INTERNAL, /, **extra: Any) -> dict[str, Any]:
    """Build the handler error object of seed 000 (`is_error` is always true).

    `extra` fields are added last, so a contract may restate `error` too (seed
    004 puts its machine code there and the text in `message`).
    """
    return {"error": message, "is_error": True, "code": str(code), **extra}
