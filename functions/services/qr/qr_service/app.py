"""Lambda entry of the qr service (template: `qr_service.app.handler`)."""

from mcp_platform.runtime.service import ServiceApp
from mcp_platform.runtime.settings import StagingSettings
from qr_service.decoding import qr_decode
from qr_service.generators import qr_barcode, qr_epc, qr_generate, qr_geo, qr_vcard, qr_wifi
from qr_service.status import qr_status

app = ServiceApp(
    "qr",
    {
        "qr_generate": qr_generate,
        "qr_decode": qr_decode,
        "qr_wifi": qr_wifi,
        "qr_vcard": qr_vcard,
        "qr_geo": qr_geo,
        "qr_epc": qr_epc,
        "qr_barcode": qr_barcode,
        "qr_status": qr_status,
    },
    settings=StagingSettings.from_env(),
)

handler = app.lambda_handler
