"""Lambda entry of the drug service (template: `drug_service.app.handler`)."""

from drug_service.ndc import drug_ndc
from drug_service.settings import settings
from drug_service.status import drug_status
from drug_service.tools import drug_adverse_events, drug_get, drug_label, drug_recalls, drug_search
from mcp_platform.runtime.service import ServiceApp

app = ServiceApp(
    "drug",
    {
        "drug_search": drug_search,
        "drug_get": drug_get,
        "drug_label": drug_label,
        "drug_adverse_events": drug_adverse_events,
        "drug_recalls": drug_recalls,
        "drug_ndc": drug_ndc,
        "drug_status": drug_status,
    },
    settings=settings(),
)
handler = app.lambda_handler
