"""Fixtures for tests that stage files: import them into a test module to use them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import boto3
import pytest

from mcp_platform.storage import staging_store

if TYPE_CHECKING:
    from collections.abc import Iterator

BUCKET = "staging-test"


@pytest.fixture
def staging_bucket(aws: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """An empty staging bucket in moto, wired through `STAGING_BUCKET` (fresh client per test)."""
    monkeypatch.setenv("STAGING_BUCKET", BUCKET)
    boto3.client("s3").create_bucket(Bucket=BUCKET)
    staging_store.default_store.cache_clear()
    yield BUCKET
    staging_store.default_store.cache_clear()
