"""Send counters in DynamoDB: a per-account daily cap and a deployment-wide rate per second.

Each is one conditional `ADD` on a key that names its window, so concurrent sends
from any number of Lambdas can never exceed the cap: the update that would pass it
fails its condition and changes nothing. Items expire with DynamoDB TTL.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

DAY_S = 86_400


@dataclass(frozen=True)
class Window:
    key: str
    resets_at: int
    """Epoch second at which the window ends."""


def day_window(account_id: str, now: float) -> Window:
    day = datetime.fromtimestamp(now, UTC).date()
    midnight = datetime(day.year, day.month, day.day, tzinfo=UTC) + timedelta(days=1)
    return Window(f"email#day#{account_id}#{day.isoformat()}", int(midnight.timestamp()))


def second_window(now: float) -> Window:
    return Window(f"email#second#{int(now)}", int(now) + 1)


class SendCounters:
    """Counters on the table named by EMAIL_COUNTERS_TABLE (the router's rate-limit table)."""

    def __init__(self, client: Any, table: str, clock: Callable[[], float] = time.time) -> None:
        self._ddb = client
        self._table = table
        self.clock = clock

    def take(self, window: Window, limit: int) -> int | None:
        """Count one more in `window` if that stays within `limit`: the new count, or None when full."""
        try:
            response = self._ddb.update_item(
                TableName=self._table,
                Key={"window_key": {"S": window.key}},
                UpdateExpression="ADD hits :one SET expires_at = :exp",
                ConditionExpression="attribute_not_exists(hits) OR hits < :limit",
                ExpressionAttributeValues={
                    ":one": {"N": "1"},
                    ":limit": {"N": str(limit)},
                    ":exp": {"N": str(window.resets_at + DAY_S)},
                },
                ReturnValues="UPDATED_NEW",
            )
        except self._ddb.exceptions.ConditionalCheckFailedException:
            return None
        return int(response["Attributes"]["hits"]["N"])

    def give_back(self, window: Window) -> None:
        """Undo one `take` (the send it counted did not happen)."""
        self._ddb.update_item(
            TableName=self._table,
            Key={"window_key": {"S": window.key}},
            UpdateExpression="ADD hits :minus",
            ConditionExpression="hits > :zero",
            ExpressionAttributeValues={":minus": {"N": "-1"}, ":zero": {"N": "0"}},
        )

    def count(self, window: Window) -> int:
        item = self._ddb.get_item(
            TableName=self._table, Key={"window_key": {"S": window.key}}, ConsistentRead=True
        ).get("Item")
        return int(item["hits"]["N"]) if item else 0
