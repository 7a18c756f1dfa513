"""Fixed one-minute windows: one atomic counter per account and window.

A fixed window is one conditional-free `ADD` per request (the cheapest write
DynamoDB has) and gives exact `X-RateLimit-*` numbers; its known weakness, a
burst of up to twice the limit across a window boundary, is acceptable for
abuse protection and is what the API Gateway throttle in front absorbs.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from collections.abc import Callable

    from mypy_boto3_dynamodb import DynamoDBClient

WINDOW_SECONDS = 60


@dataclass(frozen=True)
class RateDecision:
    allowed: bool
    limit: int
    remaining: int
    reset_at: int
    """Epoch second at which the window ends."""

    def retry_after(self, now: float | None = None) -> int:
        return max(1, self.reset_at - int(now if now is not None else time.time()))

    def headers(self) -> dict[str, str]:
        return {
            "x-ratelimit-limit": str(self.limit),
            "x-ratelimit-remaining": str(self.remaining),
            "x-ratelimit-reset": str(self.reset_at),
        }


class RateLimiter(Protocol):
    def hit(self, account_id: str, limit: int) -> RateDecision: ...


def _window(now: float) -> tuple[int, int]:
    start = int(now) // WINDOW_SECONDS * WINDOW_SECONDS
    return start, start + WINDOW_SECONDS


def _decide(count: int, limit: int, reset_at: int) -> RateDecision:
    return RateDecision(allowed=count <= limit, limit=limit, remaining=max(0, limit - count), reset_at=reset_at)


class DynamoRateLimiter:
    def __init__(self, client: DynamoDBClient, table: str, clock: Callable[[], float] = time.time) -> None:
        self._ddb = client
        self._table = table
        self._time = clock

    def hit(self, account_id: str, limit: int) -> RateDecision:
        start, reset_at = _window(self._time())
        response = self._ddb.update_item(
            TableName=self._table,
            Key={"window_key": {"S": f"{account_id}#{start}"}},
            UpdateExpression="ADD hits :one SET expires_at = :exp",
            ExpressionAttributeValues={":one": {"N": "1"}, ":exp": {"N": str(reset_at + WINDOW_SECONDS)}},
            ReturnValues="UPDATED_NEW",
        )
        return _decide(int(response["Attributes"]["hits"]["N"]), limit, reset_at)


class MemoryRateLimiter:
    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._window_start = 0
        self._counts: dict[str, int] = {}
        self._lock = threading.Lock()
        self._time = clock

    def hit(self, account_id: str, limit: int) -> RateDecision:
        start, reset_at = _window(self._time())
        with self._lock:
            if start != self._window_start:
                self._window_start, self._counts = start, {}
            count = self._counts[account_id] = self._counts.get(account_id, 0) + 1
        return _decide(count, limit, reset_at)
