"""Lambda entry of the fetch service (template: `fetch_service.app.handler`)."""

from mcp_platform.service import ServiceApp

from fetch_service.pages import fetch, fetch_status

app = ServiceApp("fetch", {"fetch": fetch, "fetch_status": fetch_status})
handler = app.lambda_handler
