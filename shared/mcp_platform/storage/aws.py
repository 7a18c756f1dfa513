"""AWS clients built once per container, from one shared botocore session, with explicit timeouts.

botocore rather than boto3: boto3 adds only the resource layer and S3 transfer
helpers, which nothing here uses, and importing it pulls in
s3transfer (~60 ms of cold start). One session means endpoint and partition
data load once for all clients. Standard AWS env vars (region,
AWS_ENDPOINT_URL_*) apply.

Every client gets `default_config()`'s timeouts unless its own config says
otherwise: botocore's defaults (60 s connect and read) would outlive any
Lambda here, turning a stalled connection into a gateway timeout instead of an
error result. This module is the only place clients are built.
"""

from __future__ import annotations

import os
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterator

    from botocore.config import Config
    from botocore.session import Session


@cache
def default_config() -> Config:
    """Connect within 2 s, no read stalls longer than 10 s, at most 3 attempts (the standard retry mode).

    botocore is imported here, with the first client, not when this module is: a function whose
    clients are built on first use does not spend ~60 ms of its cold start on botocore.
    """
    from botocore.config import Config

    return Config(connect_timeout=2, read_timeout=10, retries={"mode": "standard", "total_max_attempts": 3})


@cache
def one_attempt() -> Config:
    """Merged into a client's config for a write that is not safe to repeat (a Lambda Invoke, an SES send, a
    counter's `ADD`). Spelled with `total_max_attempts`: botocore's legacy `max_attempts` counts *retries*, so
    `{"max_attempts": 1}` means two attempts, and a `retries` dict replaces `default_config()`'s whole."""
    from botocore.config import Config

    return Config(retries={"mode": "standard", "total_max_attempts": 1})


@cache
def session() -> Session:
    """The container's botocore session, whose loader checks one service name at a time (`_loader`)."""
    from botocore.session import get_session

    shared = get_session()
    default = shared.get_component("data_loader")  # its search paths honour AWS_DATA_PATH
    shared.register_component("data_loader", _loader(list(default.search_paths)))
    return shared


def _loader(search_paths: list[str]) -> Any:
    """botocore's data loader, minus the scan of every service's model directory before loading one.

    Before loading a model, botocore checks the service name against `list_available_services`,
    which lists all ~400 service directories and their versions (~850 directory listings, ~40 ms of a
    cold start, twice: the model and its endpoint rules). Here the name alone is checked, by listing
    that service's versions (which the load does next anyway); an unknown name still raises
    `UnknownServiceError`, whose message lists every service as before.

    The model files are parsed by orjson: botocore's `json.loads` with an `OrderedDict` hook took
    ~15 ms of the router's three clients (endpoints.json alone is 1.2 MB); plain dicts keep the order.
    """
    import orjson
    from botocore.exceptions import DataNotFoundError
    from botocore.loaders import JSONFileLoader, Loader

    class KnownServices:
        def __init__(self, loader: Loader, type_name: str) -> None:
            self._loader, self._type_name = loader, type_name

        def __contains__(self, service: object) -> bool:
            try:
                return isinstance(service, str) and bool(self._loader.list_api_versions(service, self._type_name))
            except DataNotFoundError:
                return False

        def __iter__(self) -> Iterator[str]:
            return iter(Loader.list_available_services(self._loader, self._type_name))

    class OrjsonFileLoader(JSONFileLoader):
        def _load_file(self, full_path: str, open_method: Any) -> Any:
            if not os.path.isfile(full_path):
                return None
            with open_method(full_path, "rb") as fp:
                return orjson.loads(fp.read())

    class NameCheckingLoader(Loader):
        def list_available_services(self, type_name: str) -> Any:
            return KnownServices(self, type_name)

    return NameCheckingLoader(
        extra_search_paths=search_paths, file_loader=OrjsonFileLoader(), include_default_search_paths=False
    )


@cache
def client(service: str, *, once: bool = False) -> Any:
    """The container's shared client for `service`, with `default_config()`; `once`: each request sent once only."""
    return session().create_client(service, config=default_config().merge(one_attempt()) if once else default_config())


def renew() -> None:
    """Forget the container's session, credentials and clients; keep the loaded service models.

    For a process resumed from a snapshot (SnapStart): clients made afterwards resolve
    credentials and open connections anew, without parsing the models again.
    """
    loader = session().get_component("data_loader")
    session.cache_clear()
    client.cache_clear()
    session().register_component("data_loader", loader)


def client_errors() -> tuple[type[Exception], ...]:
    """botocore's `(ClientError, BotoCoreError)`, for `except aws.client_errors():` around a client call.

    An `except` clause's expression is evaluated only when an exception reaches it, so a module that
    catches these does not import botocore (~40 ms) at init.
    """
    from botocore.exceptions import BotoCoreError, ClientError

    return (ClientError, BotoCoreError)


def configured_client(service: str, config: Config | None = None, **kwargs: Any) -> Any:
    """A client with its own settings (timeouts, retries, addressing, endpoint), from the shared session.

    `config` is merged over `default_config()`; `kwargs` go to `create_client` (`endpoint_url`,
    `region_name`, credentials). Not cached: keep it for the container where it is built.
    """
    merged = default_config().merge(config) if config is not None else default_config()
    return session().create_client(service, config=merged, **kwargs)
