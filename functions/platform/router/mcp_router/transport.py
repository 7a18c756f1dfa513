"""The HTTP rules of `POST /mcp` that come before JSON-RPC (PROTOCOL.md's table).

Each check returns the response to send, or None to go on. Order matters and
follows the table: method, origin/host, Accept, Content-Type, size.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from mcp_platform.protocol.jsonrpc import INVALID_REQUEST, PARSE_ERROR, UNSUPPORTED_PROTOCOL_VERSION, JsonRpcError
from mcp_platform.protocol.mcp import DEFAULT_NEGOTIATED, LEGACY_VERSIONS, MODERN_VERSIONS
from mcp_router.http import HttpRequest, HttpResponse

if TYPE_CHECKING:
    from mcp_router.settings import RouterSettings

TRANSPORT_ERROR = -32000
"""Server-defined JSON-RPC code for HTTP-level rejections (as the MCP SDKs use it)."""


def check_http(request: HttpRequest, settings: RouterSettings) -> HttpResponse | None:
    if request.method != "POST":
        return HttpResponse.rpc_error(
            405,
            JsonRpcError(TRANSPORT_ERROR, "Method not allowed: this stateless server accepts POST only"),
            headers={"allow": "POST"},
        )
    if not _host_allowed(request, settings) or not _origin_allowed(request, settings):
        return HttpResponse.rpc_error(403, JsonRpcError(TRANSPORT_ERROR, "Forbidden: Origin or Host not allowed"))
    if not _accepts_json(request.header("accept")):
        return HttpResponse.rpc_error(
            406, JsonRpcError(TRANSPORT_ERROR, "Not Acceptable: the client must accept application/json")
        )
    content_type = (request.header("content-type") or "").split(";", 1)[0].strip().lower()
    if content_type != "application/json":
        return HttpResponse.rpc_error(
            415, JsonRpcError(TRANSPORT_ERROR, "Unsupported Media Type: Content-Type must be application/json")
        )
    if len(request.body) > settings.max_body_bytes:
        return HttpResponse.rpc_error(
            413, JsonRpcError(TRANSPORT_ERROR, f"Payload Too Large: the limit is {settings.max_body_bytes} bytes")
        )
    return None


def protocol_era(request: HttpRequest) -> tuple[str, bool]:
    """(version, modern?) from `MCP-Protocol-Version`; raises -32022 for a version we do not speak."""
    version = request.header("mcp-protocol-version") or DEFAULT_NEGOTIATED
    if version in MODERN_VERSIONS:
        return version, True
    if version in LEGACY_VERSIONS:
        return version, False
    raise JsonRpcError(
        UNSUPPORTED_PROTOCOL_VERSION,
        f"Unsupported protocol version: {version}",
        data={"supported": [*MODERN_VERSIONS, *reversed(LEGACY_VERSIONS)], "requested": version},
    )


def parse_error() -> HttpResponse:
    return HttpResponse.rpc_error(
        400, JsonRpcError(PARSE_ERROR, "Parse error: the body is not valid JSON (or nests over 1,024 levels)")
    )


def invalid_request(message: str) -> JsonRpcError:
    return JsonRpcError(INVALID_REQUEST, f"Invalid Request: {message}")


def _accepts_json(accept: str | None) -> bool:
    if not accept:
        return True  # no Accept header means anything is acceptable (RFC 9110)
    for part in accept.split(","):
        media = part.split(";", 1)[0].strip().lower()
        if media in ("application/json", "application/*", "*/*"):
            return True
    return False


def _hostname(value: str) -> str:
    return (urlsplit(f"//{value}").hostname or "").lower()


def _host_allowed(request: HttpRequest, settings: RouterSettings) -> bool:
    if not settings.allowed_hosts:
        return True
    return _hostname(request.header("host") or "") in settings.allowed_hosts


def _origin_allowed(request: HttpRequest, settings: RouterSettings) -> bool:
    origin = request.header("origin")
    if origin is None:
        return True  # not a browser: DNS rebinding needs a browser
    if origin in settings.allowed_origins:
        return True
    return bool(settings.allowed_hosts) and (urlsplit(origin).hostname or "").lower() in settings.allowed_hosts
