"""Lambda entry of the herbal service (template: `herbal_service.app.handler`)."""

from herbal_service import activities, catalogue, constituents, herbs
from herbal_service.settings import settings
from mcp_platform.runtime.service import ServiceApp

app = ServiceApp(
    "herbal",
    {
        "herbal_status": catalogue.status,
        "herbal_search": herbs.search,
        "herbal_get": herbs.get,
        "herbal_constituents": constituents.constituents,
        "herbal_by_activity": activities.by_activity,
        "herbal_interactions": activities.interactions,
    },
    settings=settings(),
)
handler = app.lambda_handler
