"""A minimal ASGI adapter over `Gateway.handle`.

Plain ASGI rather than a framework: the router has five fixed routes and the
gateway does the rest, so a framework would only add per-request overhead.
The gateway is synchronous (boto3 is). When its dependencies may block
(DynamoDB, Lambda, services in-process) and the server handles requests
concurrently (uvicorn), each request runs in a worker thread; under Mangum in
Lambda a container serves one request at a time, and with in-memory stores
nothing blocks, so there the request is handled inline and the thread hop
(~0.1 ms) is saved.
"""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from mcp_router.http import HttpRequest, HttpResponse

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, MutableMapping

    from mcp_router.gateway import Gateway

    Scope = MutableMapping[str, Any]
    Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
    Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


class GatewayApp:
    def __init__(self, gateway: Gateway, max_body_bytes: int, *, offload: bool = True) -> None:
        self.gateway = gateway
        self._max_body = max_body_bytes
        # A plain executor: anyio's to_thread costs ~40 % more per hop.
        self._executor = ThreadPoolExecutor(max_workers=32, thread_name_prefix="gateway") if offload else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        headers: dict[str, str] = {}
        duplicated: set[str] = set()
        for raw_name, raw_value in scope["headers"]:
            name = raw_name.decode("latin-1").lower()
            value = raw_value.decode("latin-1")
            if name in headers:
                duplicated.add(name)
                headers[name] = f"{headers[name]}, {value}"
            else:
                headers[name] = value
        body = await _read_body(receive, self._max_body)
        request = HttpRequest(
            method=scope["method"],
            path=scope["path"],
            headers=headers,
            body=body,
            duplicated_headers=frozenset(duplicated),
            client_ip=(scope.get("client") or ("",))[0] or "",
            deadline=_deadline(scope),
            query=scope.get("query_string", b"").decode("latin-1"),
        )
        if self._executor is not None:
            response = await asyncio.get_running_loop().run_in_executor(self._executor, self.gateway.handle, request)
        else:
            response = self.gateway.handle(request)
        await _send(send, response)


def _deadline(scope: Scope) -> float | None:
    """When the Lambda running this request stops (Mangum passes its context as `aws.context`)."""
    context = scope.get("aws.context")
    remaining = getattr(context, "get_remaining_time_in_millis", None)
    return time.time() + remaining() / 1000 if remaining else None


async def _read_body(receive: Any, limit: int) -> bytes:
    """The whole body, but stop reading one byte past the limit (the gateway then answers 413)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunk = message.get("body", b"")
        if size <= limit:  # keep the chunk that crosses the limit, so the gateway sees an oversize body
            chunks.append(chunk)
        size += len(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)[: limit + 1]


async def _send(send: Any, response: HttpResponse) -> None:
    headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in response.headers.items()]
    headers.append((b"content-length", str(len(response.body)).encode()))
    await send({"type": "http.response.start", "status": response.status, "headers": headers})
    await send({"type": "http.response.body", "body": response.body})


async def _lifespan(receive: Any, send: Any) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return
