"""Lambda entry of the vision service (template: `vision_service.app.handler`)."""

from mcp_platform.runtime.service import ServiceApp
from vision_service.settings import settings
from vision_service.tools import vision_describe, vision_labels, vision_ocr, vision_status

app = ServiceApp(
    "vision",
    {
        "vision_describe": vision_describe,
        "vision_labels": vision_labels,
        "vision_ocr": vision_ocr,
        "vision_status": vision_status,
    },
    settings=settings(),
)
handler = app.lambda_handler
