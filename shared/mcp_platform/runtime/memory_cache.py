"""A container's memory of recent answers: each entry kept for its own TTL, the least recently used dropped first.

One per use (the router's key and token lookups, robots.txt per origin, backend answers in front of their
DynamoDB table); thread-safe, since a warm container may serve requests on several threads.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable


class MemoryCache[K, V]:
    """At most `max_items` entries; `clock` is the one `ttl`s are measured on (seconds)."""

    def __init__(self, max_items: int, clock: Callable[[], float] = time.monotonic) -> None:
        self._max_items = max_items
        self._clock = clock
        self._entries: OrderedDict[K, tuple[float, V]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> tuple[V] | None:
        """`(value,)` while fresh (a cached None is a hit too), else None."""
        now = self._clock()
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            if entry[0] <= now:
                del self._entries[key]
                return None
            self._entries.move_to_end(key)
            return (entry[1],)

    def put(self, key: K, value: V, ttl: float) -> None:
        with self._lock:
            self._entries[key] = (self._clock() + ttl, value)
            self._entries.move_to_end(key)
            while len(self._entries) > self._max_items:
                self._entries.popitem(last=False)

    def get_or_load(self, key: K, load: Callable[[K], V], ttl: Callable[[V], float]) -> V:
        """The fresh value, else `load(key)` kept for `ttl(value)`; what `load` raises is raised and not kept."""
        if (hit := self.get(key)) is not None:
            return hit[0]
        value = load(key)
        self.put(key, value, ttl(value))
        return value

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
