"""Backend answers kept in the function's `BACKEND_CACHE_TABLE` for a TTL, with a small per-container memory in front.

The table is a `TableCache` (without it only the memory layer caches); the memory a `MemoryCache` on the same clock.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mcp_platform.runtime.memory_cache import MemoryCache
from mcp_platform.storage.table_cache import TableCache
from mcp_platform.storage.table_cache import cache_key as _key

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

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
    return _key(backend, method, path, sorted((k, str(v)) for k, v in params.items()), accept)


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
        self._store = TableCache(table_name, dynamodb=dynamodb, clock=clock)
        self._clock = clock
        self._memory: MemoryCache[str, CachedAnswer] = MemoryCache(memory_items, clock)

    @property
    def table(self) -> str:
        return self._store.table

    def get(self, key: str) -> CachedAnswer | None:
        if (hit := self._memory.get(key)) is not None:
            return hit[0]
        item = self._store.get(key)
        if item is None:
            return None
        answer = CachedAnswer(
            status=int(item.attributes["status"]["N"]),
            content_type=item.attributes["content_type"]["S"],
            body=item.body,
            retrieved_at=item.attributes["retrieved_at"]["S"],
            expires_at=item.expires_at,
        )
        self._remember(key, answer)
        return answer

    def put(self, key: str, backend: str, answer: CachedAnswer) -> None:
        self._remember(key, answer)
        attributes = {
            "backend": {"S": backend},
            "status": {"N": str(answer.status)},
            "content_type": {"S": answer.content_type},
            "retrieved_at": {"S": answer.retrieved_at},
        }
        self._store.put(key, answer.body, answer.expires_at, attributes)

    def forget_memory(self) -> None:
        """Drop the memory layer (tests, and benchmarks measuring the DynamoDB path)."""
        self._memory.clear()

    def _remember(self, key: str, answer: CachedAnswer) -> None:
        if len(answer.body) <= _MEMORY_BODY_BYTES:
            self._memory.put(key, answer, answer.expires_at - self._clock())
