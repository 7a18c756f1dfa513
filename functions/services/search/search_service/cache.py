"""Search's results and pages as JSON in the web cache table (`mcp_platform.storage.table_cache`).

Values too large for one item are not cached, and a store failure is a miss: a cache miss costs only time.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp_platform.storage.table_cache import TableCache


class JsonCache:
    """Get/put JSON values with a TTL. Failures are logged and treated as misses, never raised."""

    def __init__(self, table: TableCache) -> None:
        self._table = table

    def get(self, key: str) -> dict[str, Any] | None:
        hit = self._table.get(key)
        return json.loads(hit.body) if hit is not None else None

    def put(self, key: str, value: dict[str, Any], ttl_seconds: int) -> None:
        if ttl_seconds > 0:
            self._table.put(key, json.dumps(value, ensure_ascii=False).encode(), time.time() + ttl_seconds)
