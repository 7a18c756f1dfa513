"""Lambda entry of the whisper service (template: `whisper_service.app.handler`)."""

from mcp_platform.runtime.service import ServiceApp, lazy
from whisper_service.settings import settings

app = ServiceApp(
    "whisper",
    {
        "whisper_transcribe": lazy("whisper_service.tools:whisper_transcribe"),
        "whisper_languages": lazy("whisper_service.tools:whisper_languages"),
        "whisper_status": lazy("whisper_service.tools:whisper_status"),
    },
    settings=settings(),
)
handler = app.lambda_handler
