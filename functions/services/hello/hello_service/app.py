"""Lambda entry of the hello service (template: `hello_service.app.handler`)."""

from hello_service.greeting import ping
from mcp_platform.runtime.service import ServiceApp

app = ServiceApp("hello", {"hello_ping": ping})
handler = app.lambda_handler
