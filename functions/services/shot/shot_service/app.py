"""Lambda entry of the shot service (template: image command `shot_service.app.handler`)."""

from mcp_platform.runtime.service import ServiceApp
from shot_service.capture import shot_capture
from shot_service.settings import settings
from shot_service.status import shot_status

app = ServiceApp("shot", {"shot_capture": shot_capture, "shot_status": shot_status}, settings=settings())
handler = app.lambda_handler
