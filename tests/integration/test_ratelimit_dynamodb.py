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
