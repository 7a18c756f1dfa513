"""boto3 clients built lazily, once per container, and shared (Powertools' convention)."""

from __future__ import annotations

from functools import cache
from typing import Any

import boto3
from botocore.config import Config


@cache
def client(service: str, **config: Any) -> Any:
    """A boto3 client for `service`; standard AWS env vars (region, AWS_ENDPOINT_URL_*) apply.

    `config` becomes a botocore `Config` (e.g. `read_timeout=30`); clients with
    different settings are cached separately.
    """
    return boto3.session.Session().client(service, config=Config(**config) if config else None)
