"""Every Lambda Invoke is sent once: a retried Invoke runs a tool twice (issue 34 §1).

Asserted on the client's resolved retry config and by counting the requests a loopback
Lambda endpoint receives when it answers later than the client's read timeout.
"""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

import pytest

from mcp_platform.protocol.payloads import ServiceRequest
from mcp_router.invoker import LambdaInvoker, TaskNotStartedError, invoke_client

if TYPE_CHECKING:
    from collections.abc import Iterator

REQUEST = ServiceRequest(tool="email_send", arguments={}, account_id="acct", request_id="r1")


@pytest.fixture
def slow_lambda() -> Iterator[tuple[str, list[str]]]:
    """A loopback Lambda endpoint that answers each request after 2.5 s (past a 1 s read timeout)."""
    seen: list[str] = []

    class Slow(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            seen.append(self.path)
            self.rfile.read(int(self.headers.get("content-length", "0")))
            time.sleep(2.5)
            try:
                self.send_response(500)
                self.end_headers()
            except OSError:
                pass

        def log_message(self, *_args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Slow)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}", seen
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("read_timeout", [1, 26])
def test_the_invoke_client_resolves_to_exactly_one_attempt(read_timeout: int) -> None:
    client = invoke_client(read_timeout)
    assert client.meta.config.retries["total_max_attempts"] == 1
    assert client.meta.config.read_timeout == read_timeout


def test_a_read_timeout_sends_one_invoke_not_two(
    slow_lambda: tuple[str, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    endpoint, seen = slow_lambda
    monkeypatch.setenv("AWS_ENDPOINT_URL_LAMBDA", endpoint)
    invoke_client.cache_clear()
    try:
        invoker = LambdaInvoker(invoke_client(1), "svc-", client_for_timeout=invoke_client)
        reply = invoker.invoke("email", REQUEST, timeout_s=1)
        assert reply.structured_content.get("timed_out") is True
        time.sleep(0.5)
        assert seen == ["/2015-03-31/functions/svc-email/invocations"]
        seen.clear()
        with pytest.raises(TaskNotStartedError):
            invoker.start("email", REQUEST.model_copy(update={"task_id": "t1"}))
        time.sleep(0.5)
        assert len(seen) == 1, "an Event invoke was queued twice"
    finally:
        invoke_client.cache_clear()
