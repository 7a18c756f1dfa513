"""Answers kept in a DynamoDB table until their TTL: search's results and pages, the backends' answers.

Items: `{cache_key, body (zlib), expires_at, ...}`; the table's TTL attribute is `expires_at` (epoch
seconds). DynamoDB sweeps expired items lazily, so reads compare `expires_at` with now too. An empty
table name turns the cache off. Store failures are logged and count as misses: a cache outage costs
time, never an answer.
"""

from __future__ import annotations

import hashlib
import json
import time
import zlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mcp_platform.runtime.observability import logger
from mcp_platform.storage.aws import client as aws_client
from mcp_platform.storage.aws import client_errors

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

MAX_ITEM_BYTES = 380_000
"""DynamoDB items are at most 400 KB; a larger (compressed) body is not stored."""


def cache_key(*parts: object) -> str:
    """A stable key from the parts (hashed: URLs and queries can be long)."""
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


@dataclass(frozen=True)
class TableItem:
    body: bytes
    expires_at: float
    attributes: dict[str, Any]
    """The item's other attributes, as DynamoDB returns them (`{"S": ...}`, `{"N": ...}`)."""


class TableCache:
    """get/put of bodies with an expiry, in the table named `table_name` ('' turns the cache off)."""

    def __init__(self, table_name: str, *, dynamodb: Any = None, clock: Callable[[], float] = time.time) -> None:
        self._table = table_name
        self._dynamodb = dynamodb
        self._clock = clock

    @property
    def table(self) -> str:
        return self._table

    def get(self, key: str) -> TableItem | None:
        if not self._table:
            return None
        try:
            item = self._client().get_item(TableName=self._table, Key={"cache_key": {"S": key}}).get("Item")
        except client_errors():
            logger.warning("cache read failed", extra={"table": self._table}, exc_info=True)
            return None
        if not item or "body" not in item or float(item["expires_at"]["N"]) <= self._clock():
            return None
        body, expires_at = item.pop("body")["B"], float(item.pop("expires_at")["N"])
        del item["cache_key"]
        return TableItem(zlib.decompress(body), expires_at, item)

    def put(self, key: str, body: bytes, expires_at: float, attributes: Mapping[str, Any] | None = None) -> bool:
        """Store `body` until `expires_at` (epoch s); False when off, too large or failed (logged)."""
        if not self._table:
            return False
        blob = zlib.compress(body, 6)
        if len(blob) > MAX_ITEM_BYTES:
            logger.info("answer too large for the cache table", extra={"table": self._table, "bytes": len(blob)})
            return False
        item = {
            **(attributes or {}),
            "cache_key": {"S": key},
            "body": {"B": blob},
            "expires_at": {"N": str(int(expires_at))},
        }
        try:
            self._client().put_item(TableName=self._table, Item=item)
        except client_errors():
            logger.warning("cache write failed", extra={"table": self._table}, exc_info=True)
            return False
        return True

    def _client(self) -> Any:
        if self._dynamodb is None:
            self._dynamodb = aws_client("dynamodb")
        return self._dynamodb
