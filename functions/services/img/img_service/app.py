"""Lambda entry of the img service (template: `img_service.app.handler`)."""

from img_service.facts import info, status
from img_service.transform import transform
from mcp_platform.runtime.service import ServiceApp
from mcp_platform.runtime.settings import StagingSettings

app = ServiceApp(
    "img", {"img_info": info, "img_transform": transform, "img_status": status}, settings=StagingSettings.from_env()
)

handler = app.lambda_handler
