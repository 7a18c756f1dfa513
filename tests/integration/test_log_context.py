"""Each log line names its own call: function, tool and request id (issue 39, item 4).

`make dev` runs the router and every service in one process, and a warm Lambda container serves one
call after another: either way, what a call puts in the log context must end with that call. Before
this, lines of a call the router refused carried the function, tool and request id of whichever
service had run last.
"""

from __future__ import annotations

import base64
import json
from typing import TYPE_CHECKING, Any

from localdev.context import LambdaContext
from mcp_platform.runtime.observability import logger
from tests.support.logs import log_buffer  # noqa: F401 - fixture
from tests.support.router import platform

if TYPE_CHECKING:
    import io

NOT_A_PICTURE = base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"junk" * 10).decode()
"""A PNG signature and nothing readable: past the router's checks, refused by the qr service."""


def _new_lines(buffer: io.StringIO, seen: int) -> list[dict[str, Any]]:
    return [json.loads(line) for line in buffer.getvalue().splitlines()[seen:] if line.startswith("{")]


def test_two_calls_in_one_process_each_log_their_own_context(log_buffer: io.StringIO) -> None:
    """make dev: a service run in-process leaves the router's context as it found it."""
    p = platform()
    decoded = p.call("qr_decode", {"image": NOT_A_PICTURE})  # the qr service refuses it (and logs)
    assert decoded["structuredContent"]["code"] == "invalid_arguments"
    first = _new_lines(log_buffer, 0)
    service, router = (next(line for line in first if line["message"] == m) for m in ("tool error", "tools/call"))
    assert service["function_name"] == "local-svc-qr" and service["tool"] == "qr_decode"
    assert service["request_id"] == service["correlation_id"] == router["request_id"]
    assert router["tool"] == "qr_decode" and "function_name" not in router

    refused = p.call("hello_ping", {"name": "x" * 2000})  # refused by the router: no service runs
    assert refused["structuredContent"]["code"] == "invalid_arguments"
    second = _new_lines(log_buffer, len(log_buffer.getvalue().splitlines()) - 1)
    (line,) = [line for line in second if line["message"] == "tools/call"]
    assert line["tool"] == "hello_ping" and line["outcome"] == "invalid_arguments"
    assert line["request_id"] != router["request_id"]
    assert "function_name" not in line and "correlation_id" not in line


def test_a_warm_service_container_logs_each_invocation_as_its_own(log_buffer: io.StringIO) -> None:
    """Lambda: one container, two invocations with other tools and ids; no key of the first reaches the second."""
    from qr_service.app import handler

    contexts = [LambdaContext("prod-svc-qr"), LambdaContext("prod-svc-qr")]
    events = [
        {"tool": "qr_decode", "arguments": {"image": NOT_A_PICTURE}, "account_id": "a", "request_id": "req-one"},
        {"tool": "qr_status", "arguments": {"bogus": 1}, "account_id": "a", "request_id": "req-two"},
    ]
    seen = 0
    for event, context in zip(events, contexts, strict=True):
        handler(event, context)
        lines = _new_lines(log_buffer, seen)
        seen = len(log_buffer.getvalue().splitlines())
        assert lines, "each invocation logs its error"
        for line in lines:
            assert line["function_name"] == "prod-svc-qr" and line["tool"] == event["tool"]
            assert line["function_request_id"] == context.aws_request_id
            assert line["request_id"] == line["correlation_id"] == event["request_id"]
    after = _new_lines(log_buffer, 0)
    assert after[-1]["request_id"] == "req-two"
    logger.info("between invocations")
    assert "request_id" not in _new_lines(log_buffer, seen)[-1]  # nothing of the last call stays behind
