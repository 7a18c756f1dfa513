"""JSON-RPC 2.0 as MCP uses it: error codes, the protocol error, response envelopes."""

from __future__ import annotations

from typing import Any

RequestId = str | int

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
RESOURCE_NOT_FOUND = -32002
"""Legacy-era resources/read of an unknown URI (modern era uses INVALID_PARAMS)."""
HEADER_MISMATCH = -32020
MISSING_REQUIRED_CLIENT_CAPABILITY = -32021
UNSUPPORTED_PROTOCOL_VERSION = -32022


class JsonRpcError(Exception):
    """A protocol-level failure: becomes `{"error": {code, message, data?}}`, not a tool result."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data

    def to_error(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error


MODERN_HTTP_STATUS = {
    PARSE_ERROR: 400,
    INVALID_REQUEST: 400,
    INVALID_PARAMS: 400,
    HEADER_MISMATCH: 400,
    MISSING_REQUIRED_CLIENT_CAPABILITY: 400,
    UNSUPPORTED_PROTOCOL_VERSION: 400,
    METHOD_NOT_FOUND: 404,
}
"""2026-07-28: the HTTP status of a single request's error response (unlisted codes: 200)."""


def success(request_id: RequestId, result: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def failure(request_id: RequestId | None, error: JsonRpcError) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "error": error.to_error()}


def is_request_id(value: Any) -> bool:
    """JSON-RPC ids MCP accepts: strings and integers (not null, not bool, not float)."""
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))
