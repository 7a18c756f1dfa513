"""The DynamoDB TTL cache behind search's results and pages and the backends' answers (moto)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from botocore.exceptions import EndpointConnectionError

from mcp_platform.storage.table_cache import MAX_ITEM_BYTES, TableCache, cache_key

if TYPE_CHECKING:
    import pytest

TABLE = "WebCacheTable"


def test_a_body_comes_back_with_its_attributes_until_it_expires(aws: None) -> None:
    now = [1_000.0]
    cache = TableCache(TABLE, clock=lambda: now[0])
    assert cache.put("k", b"answer", 1_060, {"status": {"N": "200"}})
    hit = cache.get("k")
    assert hit is not None and (hit.body, hit.expires_at, hit.attributes) == (
        b"answer",
        1_060,
        {"status": {"N": "200"}},
    )
    now[0] = 1_060  # DynamoDB's sweep is lazy: the read checks the expiry itself
    assert cache.get("k") is None


def test_off_too_large_or_down_is_a_miss_never_an_error(aws: None, caplog: pytest.LogCaptureFixture) -> None:
    assert not TableCache("").put("k", b"x", 2e9) and TableCache("").get("k") is None
    noise = random.Random(1).randbytes(MAX_ITEM_BYTES + 1)  # random bytes do not compress
    assert not TableCache(TABLE).put("big", noise, 2e9)

    class Down:
        def get_item(self, **_: object) -> None:
            raise EndpointConnectionError(endpoint_url="http://dynamodb.test")

        put_item = get_item

    down = TableCache(TABLE, dynamodb=Down())
    assert not down.put("k", b"x", 2e9) and down.get("k") is None
    assert "cache write failed" in caplog.text and "cache read failed" in caplog.text


def test_the_key_is_stable_over_mapping_order() -> None:
    assert cache_key("search", {"a": 1, "b": 2}) == cache_key("search", {"b": 2, "a": 1}) != cache_key("search", {})
