"""HTTP as the gateway sees it: plain data, so the domain layer needs no ASGI or Lambda event."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson

from mcp_platform.protocol.jsonrpc import JsonRpcError, RequestId, failure

if TYPE_CHECKING:
    from collections.abc import Mapping


@dataclass(frozen=True)
class HttpRequest:
    method: str
    path: str
    headers: Mapping[str, str]
    """Lower-case names; a repeated header's values joined with ', '."""
    body: bytes = b""
    duplicated_headers: frozenset[str] = frozenset()
    """Lower-case names that arrived more than once (routing headers must not)."""
    client_ip: str = ""
    """The caller's address (API Gateway's sourceIp under Mangum, the socket's peer under uvicorn)."""
    deadline: float | None = None
    """Epoch seconds at which the runtime stops this request (Lambda's remaining time); None locally."""
    query: str = ""
    """The URL's query string, undecoded (`services=geo,fetch`): the connection's profile."""

    def header(self, name: str) -> str | None:
        value = self.headers.get(name)
        return value.strip() if value is not None else None


@dataclass
class HttpResponse:
    status: int
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)

    @classmethod
    def json(cls, payload: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> HttpResponse:
        return cls(status, orjson.dumps(payload), {"content-type": "application/json", **(headers or {})})

    @classmethod
    def rpc_error(
        cls,
        status: int,
        error: JsonRpcError,
        request_id: RequestId | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> HttpResponse:
        """A 4xx with a JSON-RPC error body: without one, SDK clients only report -32603."""
        return cls.json(failure(request_id, error), status, headers)

    @classmethod
    def text(cls, body: str, content_type: str, status: int = 200) -> HttpResponse:
        return cls(status, body.encode(), {"content-type": content_type})
