"""Lambda entry of the authorization server (template: `mcp_auth.lambda_entry.handler`).

Mangum turns API Gateway HTTP API events into ASGI requests for the same app `make dev` serves.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from mangum import Mangum

from mcp_auth.settings import AuthSettings
from mcp_auth.wiring import app_from_settings
from mcp_platform.runtime.entry import lambda_entry

settings = AuthSettings.from_env()


@cache
def _asgi_adapter() -> Mangum:
    """Built on the first request: importing this module (as the settings tests do) creates no AWS client."""
    return Mangum(app_from_settings(settings), lifespan="off")


def _handle(event: dict[str, Any], context: Any) -> dict[str, Any]:
    return _asgi_adapter()(event, context)


handler = lambda_entry(_handle, correlation_id_path="requestContext.requestId")
