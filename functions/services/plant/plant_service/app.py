"""Lambda entry of the plant service (template: `plant_service.app.handler`)."""

from mcp_platform.runtime.service import ServiceApp
from plant_service import tools
from plant_service.settings import settings

app = ServiceApp(
    "plant",
    {
        "plant_status": tools.plant_status,
        "plant_search": tools.plant_search,
        "plant_get": tools.plant_get,
        "plant_distribution": tools.plant_distribution,
    },
    settings=settings(),
)
handler = app.lambda_handler
