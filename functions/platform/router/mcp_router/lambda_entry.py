"""Lambda entry of the router (template: `mcp_router.lambda_entry.handler`).

Dependencies are built once per container; Mangum turns API Gateway HTTP API
events into ASGI requests for the same app the local server runs. Under SnapStart
the runtime hooks in `snapstart` prime it before the snapshot and renew its
randomness, ids and clients after each restore.
"""

from __future__ import annotations

from typing import Any

from mangum import Mangum

from mcp_platform.runtime.entry import lambda_entry
from mcp_router import snapstart
from mcp_router.asgi import GatewayApp
from mcp_router.gateway import Gateway
from mcp_router.wiring import dependencies_from_env

_deps = dependencies_from_env()
app = GatewayApp(Gateway(_deps), _deps.settings.max_body_bytes, offload=False)
_asgi_adapter = Mangum(app, lifespan="off")
snapstart.install(app, _deps.registry, lambda: Gateway(dependencies_from_env()))


def _handle(event: dict[str, Any], context: Any) -> dict[str, Any]:
    return _asgi_adapter(event, context)


handler = lambda_entry(_handle, correlation_id_path="requestContext.requestId")
