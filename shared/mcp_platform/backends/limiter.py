"""A per-container token bucket: how politely one Lambda instance calls one backend."""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable


class PoliteLimiter:
    """At most `rate_per_s` requests per second on average, `burst` at once.

    Waiting is done by the caller's thread outside the lock; a wait that would pass the
    call's deadline is refused instead (the caller answers `upstream_unavailable`).
    `hold_until` makes every caller wait, e.g. for a backend's `Retry-After`.

    Examples:
        >>> limiter = PoliteLimiter(5, burst=5)
        >>> limiter.acquire(deadline=time.monotonic() + 1)
        True
    """

    def __init__(
        self,
        rate_per_s: float,
        *,
        burst: int = 1,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.rate_per_s = rate_per_s
        self.burst = max(1, burst)
        self._clock = clock
        self._sleep = sleep
        self._lock = threading.Lock()
        self._tokens = float(self.burst)
        self._updated = clock()
        self._held_until = 0.0

    def acquire(self, deadline: float) -> bool:
        """Take one request slot, sleeping until it is due; False (nothing taken) if that is after `deadline`."""
        with self._lock:
            now = self._clock()
            self._tokens = min(self.burst, self._tokens + (now - self._updated) * self.rate_per_s)
            self._updated = now
            wait = max(0.0, (1.0 - self._tokens) / self.rate_per_s, self._held_until - now)
            if now + wait > deadline:
                return False
            self._tokens -= 1.0
        if wait > 0:
            self._sleep(wait)
        return True

    def hold_until(self, moment: float) -> None:
        """No request may start before `moment` (a `clock()` value)."""
        with self._lock:
            self._held_until = max(self._held_until, moment)
