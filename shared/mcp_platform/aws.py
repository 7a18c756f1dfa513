"""boto3 clients built lazily, once per container, and shared (Powertools' convention)."""

from __future__ import annotations

from functools import cache
from typing import Any

import boto3


@cache
def client(service: str) -> Any:
    """The container's boto3 client for `service`; standard AWS env vars (region, AWS_ENDPOINT_URL_*) apply."""
    return boto3.session.Session().client(service)
