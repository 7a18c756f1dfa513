"""Lambda entry of the fetch service (template: `fetch_service.app.handler`)."""

from fetch_service.pages import fetch, fetch_status
from mcp_platform.runtime.service import ServiceApp
from mcp_platform.runtime.settings import WebSettings

app = ServiceApp("fetch", {"fetch": fetch, "fetch_status": fetch_status}, settings=WebSettings.from_env())

handler = app.lambda_handler
