"""DynamoRateLimiter against moto: one atomic counter per account and minute, expiring by TTL."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import boto3
import pytest

from mcp_platform.ratelimit.limiter import DynamoRateLimiter
from tests.support.clock import Clock
from tests.support.dynamo import TABLE_ENV, count_requests

TABLE = TABLE_ENV["RATE_LIMIT_TABLE"]


@pytest.fixture
def ddb(aws: None) -> Any:
    return boto3.client("dynamodb")


def test_counts_within_a_window_per_account(ddb: Any) -> None:
    limiter = DynamoRateLimiter(ddb, TABLE, Clock(1_800_000_030.0))
    decisions = [limiter.hit("a", 3) for _ in range(4)]
    assert [(d.allowed, d.remaining) for d in decisions] == [(True, 2), (True, 1), (True, 0), (False, 0)]
    assert {d.reset_at for d in decisions} == {1_800_000_060}
    assert limiter.hit("b", 3).remaining == 2


def test_each_hit_is_one_write_and_the_item_expires(ddb: Any) -> None:
    limiter = DynamoRateLimiter(ddb, TABLE, Clock(1_800_000_030.0))
    with count_requests(ddb) as counter:
        limiter.hit("a", 10)
    assert dict(counter) == {"UpdateItem": 1}
    item = ddb.get_item(TableName=TABLE, Key={"window_key": {"S": "a#1800000000"}})["Item"]
    assert item["hits"]["N"] == "1"
    assert int(item["expires_at"]["N"]) == 1_800_000_120  # one window after the window ends
    ttl = ddb.describe_time_to_live(TableName=TABLE)["TimeToLiveDescription"]
    assert ttl["AttributeName"] == "expires_at" and ttl["TimeToLiveStatus"] == "ENABLED"


def test_a_new_window_resets_the_count(ddb: Any) -> None:
    clock = Clock(1_800_000_059.0)
    limiter = DynamoRateLimiter(ddb, TABLE, clock)
    limiter.hit("a", 1)
    assert not limiter.hit("a", 1).allowed
    clock.now = 1_800_000_060.0
    fresh = limiter.hit("a", 1)
    assert fresh.allowed and fresh.reset_at == 1_800_000_120


def test_concurrent_hits_are_all_counted(ddb: Any) -> None:
    limiter = DynamoRateLimiter(ddb, TABLE, Clock(1_800_000_000.0))
    with ThreadPoolExecutor(max_workers=10) as pool:
        decisions = list(pool.map(lambda _: limiter.hit("a", 25), range(30)))
    assert sum(d.allowed for d in decisions) == 25
    assert sorted(d.remaining for d in decisions)[-1] == 24


def test_a_weighted_hit_is_one_conditional_write_and_a_refused_one_takes_nothing(ddb: Any) -> None:
    limiter = DynamoRateLimiter(ddb, TABLE, Clock(1_800_000_030.0))
    with count_requests(ddb) as counter:
        first = limiter.hit("a", 10, cost=7)
        refused = limiter.hit("a", 10, cost=4)
    assert dict(counter) == {"UpdateItem": 2}
    assert (first.allowed, first.remaining) == (True, 3)
    assert (refused.allowed, refused.remaining) == (False, 3)
    item = ddb.get_item(TableName=TABLE, Key={"window_key": {"S": "a#1800000000"}})["Item"]
    assert item["hits"]["N"] == "7"
    assert limiter.hit("a", 10, cost=3).allowed


def test_more_than_the_limit_is_refused_without_a_write(ddb: Any) -> None:
    limiter = DynamoRateLimiter(ddb, TABLE, Clock(1_800_000_030.0))
    limiter.hit("a", 5, cost=2)
    with count_requests(ddb) as counter:
        decision = limiter.hit("a", 5, cost=6)
    assert counter.writes == 0
    assert (decision.allowed, decision.remaining) == (False, 3)


def test_hourly_windows_for_sign_ups(ddb: Any) -> None:
    limiter = DynamoRateLimiter(ddb, TABLE, Clock(1_800_000_030.0), window_seconds=3600)
    decision = limiter.hit("signup#192.0.2.1", 2)
    assert decision.reset_at == 1_800_000_000 // 3600 * 3600 + 3600
    item = ddb.get_item(TableName=TABLE, Key={"window_key": {"S": f"signup#192.0.2.1#{1_800_000_000 // 3600 * 3600}"}})
    assert int(item["Item"]["expires_at"]["N"]) == decision.reset_at + 3600
