"""A loopback proxy that adds the API key, for clients that cannot send one.

The official conformance suite has no option for credentials; real clients
do. The proxy forwards every request unchanged (Host and Origin included, so
DNS-rebinding checks still see what the suite sent) plus `Authorization`.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import httpx
import uvicorn


class AuthProxy:
    def __init__(self, upstream: str, api_key: str, port: int) -> None:
        self.upstream = upstream.rstrip("/")
        self.url = f"http://127.0.0.1:{port}"
        self._key = api_key
        self._server = uvicorn.Server(
            uvicorn.Config(self._app, host="127.0.0.1", port=port, log_level="warning", interface="asgi3")
        )
        self._thread = threading.Thread(target=self._server.run, daemon=True)

    async def _app(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        # Values are stripped of surrounding whitespace (RFC 9110 OWS) because httpx refuses to send it;
        # the router's own whitespace handling is covered by its unit tests.
        headers = [
            (k.decode("latin-1"), v.decode("latin-1").strip())
            for k, v in scope["headers"]
            if k.lower() != b"authorization"
        ]
        headers.append(("authorization", f"Bearer {self._key}"))
        query = f"?{scope['query_string'].decode()}" if scope.get("query_string") else ""
        async with httpx.AsyncClient(timeout=60) as client:
            upstream = await client.request(
                scope["method"], f"{self.upstream}{scope['path']}{query}", headers=headers, content=body
            )
        out = [
            (k.encode("latin-1"), v.encode("latin-1"))
            for k, v in upstream.headers.items()
            if k.lower() not in ("content-length", "transfer-encoding", "content-encoding", "connection")
        ]
        out.append((b"content-length", str(len(upstream.content)).encode()))
        await send({"type": "http.response.start", "status": upstream.status_code, "headers": out})
        await send({"type": "http.response.body", "body": upstream.content})

    def __enter__(self) -> AuthProxy:
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("auth proxy did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *_exc: object) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=5)
