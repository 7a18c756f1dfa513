"""The ASGI adapter over real HTTP semantics (httpx.ASGITransport): headers, bodies, status codes."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import anyio
import httpx
import pytest

from mcp_platform.protocol.jsonrpc import HEADER_MISMATCH
from mcp_router.asgi import GatewayApp
from mcp_router.http import HttpRequest, HttpResponse
from mcp_router.settings import RouterSettings
from tests.support.router import MODERN, Platform, message, platform, with_meta

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

CAP = 4096


@pytest.fixture(scope="module")
def plat() -> Platform:
    return platform(settings=RouterSettings(max_body_bytes=CAP))


def _send(plat: Platform, method: str, path: str, **kw: object) -> httpx.Response:
    async def go() -> httpx.Response:
        app = GatewayApp(plat.gateway, CAP)
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1") as client:
            return await client.request(method, path, **kw)  # type: ignore[arg-type]

    return anyio.run(go)


def _post(plat: Platform, payload: object, headers: dict[str, str] | None = None, **kw: object) -> httpx.Response:
    base = {"Authorization": f"Bearer {plat.key}", "Accept": "application/json, text/event-stream"}
    return _send(plat, "POST", "/mcp", json=payload, headers={**base, **(headers or {})}, **kw)


def test_a_tool_call_over_http(plat: Platform) -> None:
    response = _post(plat, message("tools/call", {"name": "hello_ping", "arguments": {"name": "Ada"}}, rpc_id="x"))
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    assert response.headers["content-length"] == str(len(response.content))
    assert int(response.headers["x-ratelimit-remaining"]) >= 0
    reply = response.json()
    assert reply["id"] == "x"
    assert reply["result"]["structuredContent"]["message"] == "hello, Ada"


def test_get_is_405_with_allow_and_a_json_rpc_body(plat: Platform) -> None:
    response = _send(plat, "GET", "/mcp", headers={"Accept": "text/event-stream"})
    assert response.status_code == 405
    assert response.headers["allow"] == "POST"
    assert response.json()["error"]["code"] == -32000


def test_header_names_are_case_insensitive(plat: Platform) -> None:
    headers = {
        "MCP-PROTOCOL-VERSION": MODERN,
        "mcp-METHOD": "tools/call",
        "Mcp-Name": "hello_ping",
        "X-API-KEY": plat.key,
        "Authorization": "",
    }
    response = _post(plat, message("tools/call", with_meta({"name": "hello_ping"})), headers)
    assert response.status_code == 200, response.text
    assert response.json()["result"]["resultType"] == "complete"


def test_a_repeated_routing_header_is_rejected(plat: Platform) -> None:
    headers = [
        ("Authorization", f"Bearer {plat.key}"),
        ("Content-Type", "application/json"),
        ("MCP-Protocol-Version", MODERN),
        ("Mcp-Method", "tools/list"),
        ("Mcp-Method", "tools/list"),
    ]
    response = _send(
        plat,
        "POST",
        "/mcp",
        content=httpx.Request("POST", "/", json=message("tools/list", with_meta({}))).content,
        headers=headers,
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == HEADER_MISMATCH


def test_a_body_over_the_cap_is_413_even_when_streamed(plat: Platform) -> None:
    async def chunks() -> AsyncIterator[bytes]:
        for _ in range(10):
            yield b"x" * 1000

    response = _post(plat, None, {"Content-Type": "application/json"}, content=chunks())
    assert response.status_code == 413
    assert response.json()["error"]["code"] == -32000


def test_a_body_at_the_cap_is_read_whole(plat: Platform) -> None:
    raw = httpx.Request("POST", "/", json=message("ping")).content
    padded = raw + b" " * (CAP - len(raw))
    response = _post(plat, None, {"Content-Type": "application/json"}, content=padded)
    assert response.status_code == 200
    assert response.json() == {"jsonrpc": "2.0", "id": 1, "result": {}}


def test_notification_is_202_with_no_body(plat: Platform) -> None:
    response = _post(plat, {"jsonrpc": "2.0", "method": "notifications/initialized"})
    assert response.status_code == 202
    assert response.content == b""
    assert response.headers["content-length"] == "0"


def test_health_and_llms_txt(plat: Platform) -> None:
    assert _send(plat, "GET", "/health").json()["status"] == "ok"
    llms = _send(plat, "GET", "/llms.txt")
    assert llms.status_code == 200 and llms.text.startswith("# MCP platform")


def test_lifespan_is_answered() -> None:
    app = GatewayApp(platform().gateway, CAP)
    sent: list[dict] = []
    inbox = iter([{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}])

    async def receive() -> dict:
        return next(inbox)

    async def send(message: dict) -> None:
        sent.append(message)

    anyio.run(app, {"type": "lifespan"}, receive, send)
    assert [m["type"] for m in sent] == ["lifespan.startup.complete", "lifespan.shutdown.complete"]


def test_the_request_deadline_is_the_lambdas_remaining_time() -> None:
    """Under Mangum the Lambda context rides in the scope; the gateway's deadline comes from it."""
    seen: list[HttpRequest] = []

    class Recorder:
        def handle(self, request: HttpRequest) -> HttpResponse:
            seen.append(request)
            return HttpResponse.json({})

    class Context:
        def get_remaining_time_in_millis(self) -> int:
            return 12_000

    async def go(context: object) -> None:
        scope = {"type": "http", "method": "POST", "path": "/mcp", "headers": []}
        if context is not None:
            scope["aws.context"] = context
        messages = iter([{"type": "http.request", "body": b"{}", "more_body": False}])

        async def receive() -> dict[str, object]:
            return next(messages)

        async def send(_message: dict[str, object]) -> None:
            return None

        await GatewayApp(Recorder(), CAP, offload=False)(scope, receive, send)  # type: ignore[arg-type]

    before = time.time()
    anyio.run(go, Context())
    anyio.run(go, None)
    assert seen[0].deadline is not None and before + 11.9 <= seen[0].deadline <= time.time() + 12
    assert seen[1].deadline is None  # locally the gateway uses its own budget
