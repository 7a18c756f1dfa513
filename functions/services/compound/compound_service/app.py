"""Lambda entry of the compound service (template: `compound_service.app.handler`)."""

from compound_service.pubchem import compound_properties, compound_safety, compound_search
from compound_service.settings import settings
from compound_service.status import compound_status
from mcp_platform.runtime.service import ServiceApp

app = ServiceApp(
    "compound",
    {
        "compound_search": compound_search,
        "compound_properties": compound_properties,
        "compound_safety": compound_safety,
        "compound_status": compound_status,
    },
    settings=settings(),
)
handler = app.lambda_handler
