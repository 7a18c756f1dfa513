"""Result and page cache in DynamoDB, expired by the table's TTL attribute.

Items: `{cache_key, value (zlib-compressed JSON), expires_at}`. DynamoDB's own TTL sweep is
lazy, so reads also compare `expires_at` with now. Values too large for one item are not
cached (a cache miss costs only time).
"""

from __future__ import annotations

import hashlib
import json
import time
import zlib
from typing import Any

from mcp_platform import aws
from mcp_platform.observability import logger

_MAX_ITEM_BYTES = 350_000


def cache_key(*parts: object) -> str:
    """A stable key from the parts (hashed: URLs and queries can be long)."""
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


class DynamoCache:
    """Get/put JSON values with a TTL. Failures are logged and treated as misses, never raised."""

    def __init__(self, table_name: str, boto3_client: Any = None) -> None:
        self._table = table_name
        self._client = boto3_client

    @property
    def client(self) -> Any:
        if self._client is None:
            self._client = aws.client("dynamodb")
        return self._client

    def get(self, key: str) -> dict[str, Any] | None:
        if not self._table:
            return None
        try:
            item = self.client.get_item(TableName=self._table, Key={"cache_key": {"S": key}}).get("Item")
        except aws.client_errors():
            logger.warning("cache read failed", exc_info=True)
            return None
        if not item or int(item["expires_at"]["N"]) <= time.time():
            return None
        return json.loads(zlib.decompress(item["value"]["B"]))

    def put(self, key: str, value: dict[str, Any], ttl_seconds: int) -> None:
        if not self._table or ttl_seconds <= 0:
            return
        blob = zlib.compress(json.dumps(value, ensure_ascii=False).encode(), 6)
        if len(blob) > _MAX_ITEM_BYTES:
            return
        item = {"cache_key": {"S": key}, "value": {"B": blob}, "expires_at": {"N": str(int(time.time()) + ttl_seconds)}}
        try:
            self.client.put_item(TableName=self._table, Item=item)
        except aws.client_errors():
            logger.warning("cache write failed", exc_info=True)
