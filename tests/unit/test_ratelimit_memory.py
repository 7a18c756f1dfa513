"""Fixed one-minute windows: counting, headers, reset (the in-memory limiter and the decision)."""

from __future__ import annotations

from mcp_platform.ratelimit.limiter import MemoryRateLimiter, RateDecision
from tests.support.clock import Clock


def test_counts_per_account_within_a_window() -> None:
    clock = Clock(6000.0)
    limiter = MemoryRateLimiter(clock)
    decisions = [limiter.hit("a", 3) for _ in range(4)]
    assert [d.allowed for d in decisions] == [True, True, True, False]
    assert [d.remaining for d in decisions] == [2, 1, 0, 0]
    assert {d.reset_at for d in decisions} == {6060}
    assert limiter.hit("b", 3).remaining == 2  # another account has its own count


def test_a_new_window_resets_the_count() -> None:
    clock = Clock(6059.0)
    limiter = MemoryRateLimiter(clock)
    limiter.hit("a", 1)
    assert not limiter.hit("a", 1).allowed
    clock.now = 6060.0
    fresh = limiter.hit("a", 1)
    assert fresh.allowed and fresh.remaining == 0 and fresh.reset_at == 6120


def test_headers_and_retry_after() -> None:
    decision = RateDecision(allowed=False, limit=10, remaining=0, reset_at=6060)
    assert decision.headers() == {"x-ratelimit-limit": "10", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "6060"}
    assert decision.retry_after(now=6015.5) == 45
    assert decision.retry_after(now=6060) == 1  # never 0: the client must wait for the next window


def test_a_hit_costs_its_weight_and_a_refused_one_costs_nothing() -> None:
    limiter = MemoryRateLimiter(Clock(6000.0))
    assert limiter.hit("a", 10, cost=7).remaining == 3
    refused = limiter.hit("a", 10, cost=4)
    assert not refused.allowed and refused.remaining == 3
    assert limiter.hit("a", 10, cost=3).allowed
    assert not limiter.hit("b", 10, cost=11).allowed  # more than the limit never fits


def test_a_longer_window() -> None:
    limiter = MemoryRateLimiter(Clock(7300.0), window_seconds=3600)
    assert limiter.hit("ip", 2).reset_at == 10800
