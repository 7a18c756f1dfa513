"""Lambda entry of the router (template: `mcp_router.lambda_entry.handler`).

Dependencies are built once per container; Mangum turns API Gateway HTTP API
events into ASGI requests for the same app the local server runs.
"""

from __future__ import annotations

from typing import Any

from mangum import Mangum

from mcp_platform.observability import logger, tracer

from mcp_router.asgi import GatewayApp
from mcp_router.gateway import Gateway
from mcp_router.wiring import dependencies_from_env

_deps = dependencies_from_env()
app = GatewayApp(Gateway(_deps), _deps.settings.max_body_bytes, offload=False)
_asgi_adapter = Mangum(app, lifespan="off")


@logger.inject_lambda_context(correlation_id_path="requestContext.requestId", clear_state=True)
@tracer.capture_lambda_handler(capture_response=False)
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    return _asgi_adapter(event, context)
