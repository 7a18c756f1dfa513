"""Faults moto never produces, injected with botocore event hooks on a real (moto-backed) client.

- `resend_after_success`: the request lands, its response is "lost" and botocore
  sends it again (what a read timeout or a 500 after commit does under retries).
- `fail_with`: the next `times` matching requests are answered with an AWS error
  code (a `TransactionConflictException`, a throttle) without reaching moto.
"""

from __future__ import annotations

from typing import Any


class _Response:
    def __init__(self, status: int) -> None:
        self.status_code = status
        self.headers: dict[str, str] = {}


def _on(request_dict: dict[str, Any], table: str | None) -> bool:
    body = request_dict.get("body", b"")
    return table is None or f'"{table}"'.encode() in (body if isinstance(body, bytes) else body.encode())


def resend_after_success(client: Any, operation: str, table: str | None = None, times: int = 1) -> list[int]:
    """The first `times` successful `operation` requests (on `table`) are sent once more; returns a hit counter."""
    hits = [0]

    def resend(response: Any, request_dict: dict[str, Any], **_: Any) -> int | None:
        status = response[0].status_code if response and response[0] is not None else 0
        if status == 200 and hits[0] < times and _on(request_dict, table):
            hits[0] += 1
            return 0  # retry at once: the same request is sent again
        return None

    client.meta.events.register_first(f"needs-retry.dynamodb.{operation}", resend)
    return hits


def fail_with(client: Any, operation: str, code: str, times: int = 1, table: str | None = None) -> list[int]:
    """Answer the next `times` `operation` requests (on `table`) with `code`; returns a hit counter."""
    hits = [0]

    def refuse(params: dict[str, Any], **_: Any) -> tuple[_Response, dict[str, Any]] | None:
        if hits[0] < times and _on(params, table):
            hits[0] += 1
            return _Response(400), {"Error": {"Code": code, "Message": f"injected {code}"}}
        return None

    client.meta.events.register_first(f"before-call.dynamodb.{operation}", refuse)
    return hits
