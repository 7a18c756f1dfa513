"""Fixed windows: one atomic counter per key (an account, a source address) and window.

A fixed window is one `ADD` per request (the cheapest write DynamoDB has) and
gives exact `X-RateLimit-*` numbers; its known weakness, a burst of up to twice
the limit across a window boundary, is acceptable for abuse protection and is
what the API Gateway throttle in front absorbs.

A hit may cost more than one (a JSON-RPC batch of N tool calls costs N). The
write is conditional on the window having room for the whole cost, so a refused
request takes nothing from the window: a batch too big for what is left does
not starve the single calls that follow it.
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
    def hit(self, key: str, limit: int, cost: int = 1) -> RateDecision:
        """Take `cost` from `key`'s current window if it has room for all of it (one write at most)."""
        ...


def _window(now: float, seconds: int) -> tuple[int, int]:
    start = int(now) // seconds * seconds
    return start, start + seconds


def _decide(used: int, limit: int, reset_at: int, allowed: bool) -> RateDecision:
    return RateDecision(allowed=allowed, limit=limit, remaining=max(0, limit - used), reset_at=reset_at)


class DynamoRateLimiter:
    def __init__(
        self,
        client: DynamoDBClient,
        table: str,
        clock: Callable[[], float] = time.time,
        window_seconds: int = WINDOW_SECONDS,
    ) -> None:
        self._ddb = client
        self._table = table
        self._time = clock
        self._seconds = window_seconds

    def hit(self, key: str, limit: int, cost: int = 1) -> RateDecision:
        start, reset_at = _window(self._time(), self._seconds)
        item_key = {"window_key": {"S": f"{key}#{start}"}}
        if cost > limit:  # can never fit: refuse without writing, report what is used
            item = self._ddb.get_item(TableName=self._table, Key=item_key, ConsistentRead=True).get("Item", {})
            return _decide(int(item.get("hits", {}).get("N", "0")), limit, reset_at, allowed=False)
        try:
            response = self._ddb.update_item(
                TableName=self._table,
                Key=item_key,
                UpdateExpression="ADD hits :cost SET expires_at = :exp",
                ConditionExpression="attribute_not_exists(hits) OR hits <= :room",
                ExpressionAttributeValues={
                    ":cost": {"N": str(cost)},
                    ":room": {"N": str(limit - cost)},
                    ":exp": {"N": str(reset_at + self._seconds)},
                },
                ReturnValues="UPDATED_NEW",
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
        except self._ddb.exceptions.ConditionalCheckFailedException as exc:
            used = int(exc.response.get("Item", {}).get("hits", {}).get("N", str(limit)))
            return _decide(used, limit, reset_at, allowed=False)
        return _decide(int(response["Attributes"]["hits"]["N"]), limit, reset_at, allowed=True)


class MemoryRateLimiter:
    def __init__(self, clock: Callable[[], float] = time.time, window_seconds: int = WINDOW_SECONDS) -> None:
        self._window_start = 0
        self._counts: dict[str, int] = {}
        self._lock = threading.Lock()
        self._time = clock
        self._seconds = window_seconds

    def hit(self, key: str, limit: int, cost: int = 1) -> RateDecision:
        start, reset_at = _window(self._time(), self._seconds)
        with self._lock:
            if start != self._window_start:
                self._window_start, self._counts = start, {}
            used = self._counts.get(key, 0)
            allowed = used + cost <= limit
            if allowed:
                used = self._counts[key] = used + cost
        return _decide(used, limit, reset_at, allowed)
