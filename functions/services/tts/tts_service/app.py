"""Lambda entry of the tts service (template: `tts_service.app.handler`)."""

from mcp_platform.runtime.service import ServiceApp
from tts_service.settings import settings
from tts_service.tools import tts_estimate, tts_languages, tts_status, tts_synthesize, tts_voices

app = ServiceApp(
    "tts",
    {
        "tts_synthesize": tts_synthesize,
        "tts_voices": tts_voices,
        "tts_languages": tts_languages,
        "tts_estimate": tts_estimate,
        "tts_status": tts_status,
    },
    settings=settings(),
)
handler = app.lambda_handler
