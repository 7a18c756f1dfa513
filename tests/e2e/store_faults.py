"""A loopback proxy in front of the local store that answers chosen DynamoDB requests with an AWS error.

moto never cancels a write for a conflicting transaction; a router started over this proxy
(`running_router(proxy.port)`) meets `TransactionConflictException` and cancelled transactions as it
would in AWS, and every other request reaches the store unchanged. Only the test knows about it: the
platform has no switch for it.
"""

from __future__ import annotations

import http.client
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

    Rule = Callable[[str, dict[str, Any]], str | None]
    """(operation, request body) → the AWS error code to answer with, or None to pass the request on."""

_HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "host"}


def error_body(code: str) -> dict[str, Any]:
    """DynamoDB's JSON error; a cancelled transaction names its reason once per item (three is enough)."""
    body: dict[str, Any] = {"__type": f"com.amazonaws.dynamodb.v20120810#{code}", "message": f"injected {code}"}
    if code == "TransactionCanceledException":
        body["CancellationReasons"] = [{"Code": "TransactionConflict"}] * 3
    return body


class StoreFaults:
    """The proxy on a free loopback port; `rule` decides each DynamoDB request, `injected` counts the errors."""

    def __init__(self, store_port: int) -> None:
        self.rule: Rule = lambda _operation, _body: None
        self.injected: list[tuple[str, str]] = []
        faults = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def _relay(self) -> None:
                body = self._body()
                target = self.headers.get("X-Amz-Target", "")
                if target.startswith("DynamoDB_") and (code := faults.decide(target.split(".")[-1], body)):
                    status, headers = 400, [("Content-Type", "application/x-amz-json-1.0")]
                    payload = json.dumps(error_body(code)).encode()
                else:
                    status, headers, payload = self._forward(body)
                self.send_response(status)
                for name, value in headers:
                    if name.lower() not in _HOP_BY_HOP:
                        self.send_header(name, value)
                if self.command == "HEAD":  # the length of what a GET would return, and no body
                    length = next((v for k, v in headers if k.lower() == "content-length"), "0")
                    payload = b""
                else:
                    length = str(len(payload))
                self.send_header("Content-Length", length)
                self.end_headers()
                self.wfile.write(payload)

            def _forward(self, body: bytes) -> tuple[int, list[tuple[str, str]], bytes]:
                headers = {k: v for k, v in self.headers.items() if k.lower() not in _HOP_BY_HOP}
                # The store runs one DynamoDB request at a time, whichever endpoint it came through
                # (localdev.store_process): this router gets DynamoDB's per-request atomicity too.
                store = http.client.HTTPConnection("127.0.0.1", store_port, timeout=60)
                store.request(self.command, self.path, body=body, headers=headers)
                reply = store.getresponse()
                payload = reply.read()
                store.close()
                return reply.status, reply.getheaders(), payload

            def _body(self) -> bytes:
                if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                    chunks = []
                    while size := int(self.rfile.readline().split(b";")[0], 16):
                        chunks.append(self.rfile.read(size))
                        self.rfile.readline()
                    self.rfile.readline()
                    return b"".join(chunks)
                return self.rfile.read(int(self.headers.get("Content-Length") or 0))

            do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = _relay

            def log_message(self, *_args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    def decide(self, operation: str, raw: bytes) -> str | None:
        code = self.rule(operation, json.loads(raw or b"{}"))
        if code is not None:
            self.injected.append((operation, code))
        return code

    def __enter__(self) -> StoreFaults:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
