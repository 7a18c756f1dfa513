"""Lambda entry of the fetch service (template: `fetch_service.app.handler`)."""

from fetch_service.pages import fetch, fetch_status
from mcp_platform.service import ServiceApp

app = ServiceApp("fetch", {"fetch": fetch, "fetch_status": fetch_status})
handler = app.lambda_handler
