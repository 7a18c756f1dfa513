"""Lambda entry of the promptguard service (template: `promptguard_service.app.handler`).

The tools are imported on their first call (`lazy`): the detection engine (its rules, both models,
the calibration and the English word list) loads with `check`, so a container's init stays small and
its first check pays the load once (docs/performance.md).
"""

from mcp_platform.runtime.service import ServiceApp, lazy
from promptguard_service.settings import settings

app = ServiceApp(
    "promptguard",
    {
        "promptguard_check": lazy("promptguard_service.check:promptguard_check"),
        "promptguard_canary": lazy("promptguard_service.canary:promptguard_canary"),
    },
    settings=settings(),
)
handler = app.lambda_handler
