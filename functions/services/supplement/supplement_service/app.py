"""Lambda entry of the supplement service (template: `supplement_service.app.handler`)."""

from mcp_platform.runtime.service import ServiceApp
from supplement_service.settings import settings
from supplement_service.status import supplement_status
from supplement_service.tools import supplement_ingredient, supplement_label, supplement_search

app = ServiceApp(
    "supplement",
    {
        "supplement_search": supplement_search,
        "supplement_label": supplement_label,
        "supplement_ingredient": supplement_ingredient,
        "supplement_status": supplement_status,
    },
    settings=settings(),
)
handler = app.lambda_handler
