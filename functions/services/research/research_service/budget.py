"""Budget caps per depth: pages read, LLM tokens and wall-clock seconds.

The seconds cap is also bounded by what the Lambda has left
(`ServiceContext.seconds_left()`), minus a reserve for drafting and assembling
the answer, so a slow search or page ends the reading early and the call
returns what it has, with a gap saying so — never a timeout.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

CHARS_PER_TOKEN = 4
"""A conservative estimate for English prose; budgets are caps, not bills."""


@dataclass(frozen=True)
class Caps:
    searches: int
    pages: int
    tokens: int
    """Prompt plus reply, over every LLM call of the run."""
    reply_tokens: int
    seconds: float
    min_claims: int
    """Fewer claims surviving the quote gate than this fails the gate."""


CAPS: dict[str, Caps] = {
    "quick": Caps(searches=1, pages=3, tokens=8_000, reply_tokens=1_200, seconds=14, min_claims=2),
    "standard": Caps(searches=2, pages=6, tokens=18_000, reply_tokens=2_000, seconds=20, min_claims=3),
    "deep": Caps(searches=3, pages=10, tokens=36_000, reply_tokens=3_000, seconds=24, min_claims=4),
}

TASK_TIME_FACTOR = 5
"""A task is not cut at the gateway's 29 s: its reading may take this many times the depth's seconds cap,
so a slow source is read instead of reported as a gap. Pages, searches and tokens stay the depth's."""


def for_task(caps: Caps) -> Caps:
    return replace(caps, seconds=caps.seconds * TASK_TIME_FACTOR)


DRAFT_RESERVE_SECONDS = 8.0
"""Kept back from reading for the LLM draft and the answer's assembly."""
MIN_STEP_SECONDS = 1.0
"""A fetch or search with less time than this is not started."""
PAGE_TIMEOUT_SECONDS = 8.0


class Budget:
    """Tracks one run against its caps; every `allow_*` answer is a decision, never an exception."""

    def __init__(
        self,
        caps: Caps,
        seconds_left: float,
        clock: Callable[[], float] = time.monotonic,
        stop: Callable[[], bool] | None = None,
    ) -> None:
        """`stop` says the run should end now (its task was cancelled): no time is left from then on."""
        self.caps = caps
        self._now = clock
        self._stop = stop
        self._deadline = self._now() + min(caps.seconds, seconds_left)
        self.tokens_used = 0
        self.pages_read = 0
        self.searches_run = 0

    def seconds_left(self) -> float:
        if self._stop is not None and self._stop():
            return 0.0
        return max(0.0, self._deadline - self._now())

    def step_timeout(self) -> float | None:
        """Timeout for the next search or fetch, or None when reading must stop to leave time to draft."""
        available = self.seconds_left() - DRAFT_RESERVE_SECONDS
        return None if available < MIN_STEP_SECONDS else min(available, PAGE_TIMEOUT_SECONDS)

    def draft_timeout(self) -> float | None:
        """Timeout for the drafting call, or None when there is no time left for one."""
        left = self.seconds_left()
        return None if left < MIN_STEP_SECONDS * 2 else left - MIN_STEP_SECONDS

    def prompt_chars_per_page(self, pages: int) -> int:
        """How much of each page's text fits the prompt, leaving room for the reply."""
        room = self.caps.tokens - self.tokens_used - self.caps.reply_tokens - 500
        return max(0, room * CHARS_PER_TOKEN // max(1, pages))

    def spend_tokens(self, input_tokens: int, output_tokens: int) -> None:
        self.tokens_used += input_tokens + output_tokens
