"""Fixtures for tests that stage files: import them into a test module to use them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import boto3
import pytest

from mcp_platform.runtime.settings import StagingSettings
from mcp_platform.storage import staging_store

if TYPE_CHECKING:
    from collections.abc import Iterator

BUCKET = StagingSettings.from_env().staging_bucket
"""The bucket the services stage in: their `STAGING_BUCKET`, as the template and the local default name it
(tests/conftest.py sets every function's variables before any service is imported)."""


@pytest.fixture
def staging_bucket(aws: None) -> Iterator[str]:
    """An empty staging bucket in moto, the one the services' settings name (fresh client per test)."""
    boto3.client("s3").create_bucket(Bucket=BUCKET)
    staging_store.forget_stores()
    yield BUCKET
    staging_store.forget_stores()


def service_store() -> staging_store.StagingStore:
    """The store the services write to, for a test to read or seed."""
    return staging_store.store_for(BUCKET)
