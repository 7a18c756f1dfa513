"""Lambda entry of the promptguard service (template: `promptguard_service.app.handler`)."""

from mcp_platform.runtime.service import ServiceApp
from promptguard_service.canary import promptguard_canary
from promptguard_service.check import promptguard_check
from promptguard_service.engine import warm
from promptguard_service.settings import settings

app = ServiceApp(
    "promptguard",
    {"promptguard_check": promptguard_check, "promptguard_canary": promptguard_canary},
    settings=settings(),
)
handler = app.lambda_handler
warm()
