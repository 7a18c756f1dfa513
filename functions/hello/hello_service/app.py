"""Lambda entry of the hello service (template: `hello_service.app.handler`)."""

from mcp_platform.service import ServiceApp

from hello_service.greeting import ping

app = ServiceApp("hello", {"hello_ping": ping})
handler = app.lambda_handler
