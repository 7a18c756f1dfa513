"""Lambda entry of the tts service (template: `tts_service.app.handler`)."""

from mcp_platform.runtime.service import ServiceApp, lazy
from tts_service.settings import settings

app = ServiceApp(
    "tts",
    {
        "tts_synthesize": lazy("tts_service.tools:tts_synthesize"),
        "tts_voices": lazy("tts_service.tools:tts_voices"),
        "tts_languages": lazy("tts_service.tools:tts_languages"),
        "tts_estimate": lazy("tts_service.tools:tts_estimate"),
        "tts_status": lazy("tts_service.tools:tts_status"),
    },
    settings=settings(),
)
handler = app.lambda_handler
