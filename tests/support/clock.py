"""A clock tests move by hand (for caches, windows and TTLs)."""

from __future__ import annotations


class Clock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        """A `time.sleep` stand-in that moves this clock instead of waiting."""
        self.now += seconds
