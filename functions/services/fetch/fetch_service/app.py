"""Lambda entry of the fetch service (template: `fetch_service.app.handler`)."""

from fetch_service.pages import fetch, fetch_status
from fetch_service.settings import settings
from mcp_platform.runtime.service import ServiceApp

app = ServiceApp("fetch", {"fetch": fetch, "fetch_status": fetch_status}, settings=settings())

handler = app.lambda_handler
