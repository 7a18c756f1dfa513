"""Lambda entry of the whisper service (template: `whisper_service.app.handler`)."""

from mcp_platform.runtime.service import ServiceApp
from whisper_service.settings import settings
from whisper_service.tools import whisper_languages, whisper_status, whisper_transcribe

app = ServiceApp(
    "whisper",
    {
        "whisper_transcribe": whisper_transcribe,
        "whisper_languages": whisper_languages,
        "whisper_status": whisper_status,
    },
    settings=settings(),
)
handler = app.lambda_handler
