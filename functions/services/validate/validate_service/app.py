"""Lambda entry of the validate service (template: `validate_service.app.handler`)."""

from mcp_platform.runtime.service import ServiceApp
from validate_service.banking import validate_bic, validate_iban
from validate_service.card import validate_card
from validate_service.email_address import validate_email
from validate_service.json_document import validate_json
from validate_service.numbers import validate_number
from validate_service.phone import validate_phone
from validate_service.settings import settings
from validate_service.status import validate_status
from validate_service.url import validate_url
from validate_service.vat import validate_vat

app = ServiceApp(
    "validate",
    {
        "validate_email": validate_email,
        "validate_phone": validate_phone,
        "validate_iban": validate_iban,
        "validate_bic": validate_bic,
        "validate_vat": validate_vat,
        "validate_card": validate_card,
        "validate_url": validate_url,
        "validate_json": validate_json,
        "validate_number": validate_number,
        "validate_status": validate_status,
    },
    settings=settings(),
)

handler = app.lambda_handler
