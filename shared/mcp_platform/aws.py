"""AWS clients built lazily, once per container, from one shared botocore session.

botocore rather than boto3: boto3 adds only the resource layer and S3 transfer
helpers, which nothing here uses, and importing it pulls in s3transfer (~60 ms
of cold start). One session means endpoint and partition data load once for
all clients. Standard AWS env vars (region, AWS_ENDPOINT_URL_*) apply.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from botocore.session import Session, get_session

if TYPE_CHECKING:
    from botocore.config import Config


@cache
def session() -> Session:
    """The container's botocore session."""
    return get_session()


@cache
def client(service: str) -> Any:
    """The container's shared client for `service`."""
    return session().create_client(service)


def renew() -> None:
    """Forget the container's session, credentials and clients; keep the loaded service models.

    For a process resumed from a snapshot (SnapStart): clients made afterwards resolve
    credentials and open connections anew, without parsing the models again.
    """
    loader = session().get_component("data_loader")
    session.cache_clear()
    client.cache_clear()
    session().register_component("data_loader", loader)


def configured_client(service: str, config: Config) -> Any:
    """A client with its own settings (timeouts, retries, addressing), from the shared session; not cached."""
    return session().create_client(service, config=config)
