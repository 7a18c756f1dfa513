"""boto3 clients built lazily, once per container, from one shared session (Powertools' convention).

One session means botocore loads its endpoint and partition data once for all
clients, which saves ~15 ms of cold start per extra client.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

import boto3

if TYPE_CHECKING:
    from botocore.config import Config


@cache
def session() -> boto3.session.Session:
    """The container's boto3 session; standard AWS env vars (region, AWS_ENDPOINT_URL_*) apply."""
    return boto3.session.Session()


@cache
def client(service: str) -> Any:
    """The container's shared boto3 client for `service`."""
    return session().client(service)


def configured_client(service: str, config: Config) -> Any:
    """A client with its own settings (timeouts, retries), from the shared session; not cached."""
    return session().client(service, config=config)
