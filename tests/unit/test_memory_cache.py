"""The in-memory TTL cache behind the router's key lookups, robots.txt rules and backend answers."""

from __future__ import annotations

import pytest

from mcp_platform.runtime.memory_cache import MemoryCache


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_an_entry_lives_for_its_own_ttl() -> None:
    clock = Clock()
    cache: MemoryCache[str, int] = MemoryCache(10, clock)
    cache.put("short", 1, 5)
    cache.put("long", 2, 60)
    clock.now += 5
    assert cache.get("short") is None
    assert cache.get("long") == (2,)


def test_a_cached_none_is_a_hit() -> None:
    cache: MemoryCache[str, int | None] = MemoryCache(10, Clock())
    cache.put("unknown", None, 5)
    assert cache.get("unknown") == (None,)
    assert cache.get("never") is None


def test_the_least_recently_used_goes_first() -> None:
    cache: MemoryCache[str, int] = MemoryCache(2, Clock())
    cache.put("a", 1, 60)
    cache.put("b", 2, 60)
    assert cache.get("a") == (1,)
    cache.put("c", 3, 60)
    assert (cache.get("a"), cache.get("b"), cache.get("c")) == ((1,), None, (3,))


def test_get_or_load_loads_once_per_ttl_and_keeps_no_failure() -> None:
    clock = Clock()
    cache: MemoryCache[str, str] = MemoryCache(10, clock)
    loads: list[str] = []

    def load(key: str) -> str:
        loads.append(key)
        if key == "down":
            raise ConnectionError(key)
        return key.upper()

    assert [cache.get_or_load("x", load, lambda _: 10) for _ in range(3)] == ["X", "X", "X"]
    clock.now += 10
    assert cache.get_or_load("x", load, lambda _: 10) == "X"
    for _ in range(2):
        with pytest.raises(ConnectionError):
            cache.get_or_load("down", load, lambda _: 10)
    assert loads == ["x", "x", "down", "down"]
