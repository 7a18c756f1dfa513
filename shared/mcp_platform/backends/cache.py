"""Backend answers kept in DynamoDB for a TTL, with a small per-container memory in front.

Items: `{cache_key, backend, status, content_type, body (zlib), retrieved_at, expires_at}`; the
table's TTL attribute is `expires_at` (epoch seconds). DynamoDB sweeps expired items lazily, so
reads compare `expires_at` with now too. The table is the function's `BACKEND_CACHE_TABLE` setting;
without it only the memory layer caches. Store failures are logged and count as misses: a cache outage costs
time, never an answer.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
import zlib
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mcp_platform.aws import client as aws_client
from mcp_platform.aws import client_errors
from mcp_platform.observability import logger

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

_MAX_ITEM_BYTES = 380_000
"""DynamoDB items are at most 400 KB; larger (compressed) bodies are kept in memory only."""
_MEMORY_ITEMS = 256
_MEMORY_BODY_BYTES = 4_000_000


@dataclass(frozen=True)
class CachedAnswer:
    status: int
    content_type: str
    body: bytes
    retrieved_at: str
    expires_at: float
    memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """Decoded forms of `body` (the parsed JSON), shared by every response built from this answer, so a
    memory hit does not parse the body again."""


def cache_key(backend: str, method: str, path: str, params: Mapping[str, Any], accept: str) -> str:
    """Stable over parameter order; the origin is left out (a mirror serves the same API)."""
    canonical = json.dumps([backend, method, path, sorted((k, str(v)) for k, v in params.items()), accept])
    return hashlib.sha256(canonical.encode()).hexdigest()


class ResponseCache:
    """get/put of `CachedAnswer`s: memory first, then DynamoDB (whose hits refill memory)."""

    def __init__(
        self,
        table_name: str,
        *,
        dynamodb: Any = None,
        clock: Callable[[], float] = time.time,
        memory_items: int = _MEMORY_ITEMS,
    ) -> None:
        self._table = table_name
        self._dynamodb = dynamodb
        self._clock = clock
        self._memory: OrderedDict[str, CachedAnswer] = OrderedDict()
        self._memory_items = memory_items
        self._lock = threading.Lock()

    @property
    def table(self) -> str:
        return self._table

    def get(self, key: str) -> CachedAnswer | None:
        now = self._clock()
        with self._lock:
            hit = self._memory.get(key)
            if hit is not None:
                if hit.expires_at > now:
                    self._memory.move_to_end(key)
                    return hit
                del self._memory[key]
        if not self._table:
            return None
        try:
            item = self._client().get_item(TableName=self._table, Key={"cache_key": {"S": key}}).get("Item")
        except client_errors():
            logger.warning("backend cache read failed", exc_info=True)
            return None
        if not item or float(item["expires_at"]["N"]) <= now:
            return None
        answer = CachedAnswer(
            status=int(item["status"]["N"]),
            content_type=item["content_type"]["S"],
            body=zlib.decompress(item["body"]["B"]),
            retrieved_at=item["retrieved_at"]["S"],
            expires_at=float(item["expires_at"]["N"]),
        )
        self._remember(key, answer)
        return answer

    def put(self, key: str, backend: str, answer: CachedAnswer) -> None:
        self._remember(key, answer)
        if not self._table:
            return
        blob = zlib.compress(answer.body, 6)
        if len(blob) > _MAX_ITEM_BYTES:
            logger.info("backend answer too large for the cache table", extra={"backend": backend, "bytes": len(blob)})
            return
        item = {
            "cache_key": {"S": key},
            "backend": {"S": backend},
            "status": {"N": str(answer.status)},
            "content_type": {"S": answer.content_type},
            "body": {"B": blob},
            "retrieved_at": {"S": answer.retrieved_at},
            "expires_at": {"N": str(int(answer.expires_at))},
        }
        try:
            self._client().put_item(TableName=self._table, Item=item)
        except client_errors():
            logger.warning("backend cache write failed", exc_info=True)

    def forget_memory(self) -> None:
        """Drop the memory layer (tests, and benchmarks measuring the DynamoDB path)."""
        with self._lock:
            self._memory.clear()

    def _remember(self, key: str, answer: CachedAnswer) -> None:
        if len(answer.body) > _MEMORY_BODY_BYTES:
            return
        with self._lock:
            self._memory[key] = answer
            self._memory.move_to_end(key)
            while len(self._memory) > self._memory_items:
                self._memory.popitem(last=False)

    def _client(self) -> Any:
        if self._dynamodb is None:
            self._dynamodb = aws_client("dynamodb")
        return self._dynamodb
