"""SnapStart for the router: what the snapshot keeps, and what each restored environment renews.

With SnapStart, Lambda runs the init (imports, registry, clients) once per published version and
snapshots the environment; every cold start then resumes from that snapshot instead of importing
again. The work done before the snapshot is never paid on a cold start, so it is the place for the
work the first request would otherwise do (`prime`). What every restored environment would
otherwise share must be renewed (`restore`):

- unique values: `random`'s state and the request-id prefix (`mcp_platform.protocol.ids`);
- network state: the AWS session and clients are re-created (the loaded service models stay), so
  no connection pool, resolved credentials or endpoint cache outlives the snapshot.

The hooks run only under SnapStart; without it (or locally) nothing here is called.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from snapshot_restore_py import register_after_restore, register_before_snapshot

from mcp_platform.protocol import ids
from mcp_platform.storage import aws
from mcp_router.http import HttpRequest

if TYPE_CHECKING:
    from collections.abc import Callable

    from mcp_platform.catalogue.registry import Registry
    from mcp_router.asgi import GatewayApp
    from mcp_router.gateway import Gateway

_OFFLINE_PATHS = ("/health", "/llms.txt", "/.well-known/mcp")


def install(app: GatewayApp, registry: Registry, rebuild: Callable[[], Gateway]) -> None:
    """Register the runtime hooks for `app` (serving `registry`); `rebuild` makes a gateway with new clients."""
    register_before_snapshot(prime, app, registry)
    register_after_restore(restore, app, rebuild)


def prime(app: GatewayApp, registry: Registry) -> None:
    """Before the snapshot: what the first requests would compute, without touching the network.

    Every tool's contract and argument validator (without SnapStart each is built on the tool's
    first call; the catalogue already holds the published schemas) and the public documents; the
    gateway's own paths are exercised through `handle`, as a request would. The search modules are
    imported here, not with this module: a plain cold start never runs this hook.
    """
    from mcp_platform.catalogue.tool_search import embedding_text
    from mcp_router.tool_embedding import wordllama

    for spec in registry:
        spec.input_model.model_rebuild()
    # tools_search's embedding and the tools' vectors (cached by the embedding): about 0.3 s on first use
    wordllama().embed([embedding_text(spec) for spec in registry])
    for path in _OFFLINE_PATHS:
        app.gateway.handle(HttpRequest("GET", path, {}, b""))


def restore(app: GatewayApp, rebuild: Callable[[], Gateway]) -> None:
    """After a restore: fresh randomness and ids, new clients, before any request is served."""
    random.seed()  # from os.urandom: each restored environment draws its own sequence
    ids.reseed()
    aws.renew()
    app.gateway = rebuild()
