"""Lambda entry of the docs service (template: `docs_service.app.handler`)."""

from docs_service.extraction import docs_extract, docs_status
from docs_service.settings import settings
from mcp_platform.runtime.service import ServiceApp

app = ServiceApp("docs", {"docs_extract": docs_extract, "docs_status": docs_status}, settings=settings())

handler = app.lambda_handler
