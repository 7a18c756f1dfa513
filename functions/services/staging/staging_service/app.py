"""Lambda entry of the staging service (template: `staging_service.app.handler`)."""

from mcp_platform.runtime.service import ServiceApp
from mcp_platform.runtime.settings import StagingSettings
from staging_service.files import delete, get, status, upload, upload_url

app = ServiceApp(
    "staging",
    {
        "staging_upload": upload,
        "staging_upload_url": upload_url,
        "staging_get": get,
        "staging_delete": delete,
        "staging_status": status,
    },
    settings=StagingSettings.from_env(),
)

handler = app.lambda_handler
