"""Lambda entry of the validate service (template: `validate_service.app.handler`)."""

from mcp_platform.runtime.service import ServiceApp, lazy
from validate_service.card import validate_card
from validate_service.numbers import validate_number
from validate_service.phone import validate_phone
from validate_service.settings import settings
from validate_service.status import validate_status
from validate_service.url import validate_url
from validate_service.vat import validate_vat

app = ServiceApp(
    "validate",
    {
        "validate_email": lazy("validate_service.email_address:validate_email"),
        "validate_phone": validate_phone,
        "validate_iban": lazy("validate_service.banking:validate_iban"),
        "validate_bic": lazy("validate_service.banking:validate_bic"),
        "validate_vat": validate_vat,
        "validate_card": validate_card,
        "validate_url": validate_url,
        "validate_json": lazy("validate_service.json_document:validate_json"),
        "validate_number": validate_number,
        "validate_status": validate_status,
    },
    settings=settings(),
)

handler = app.lambda_handler
