"""Helpers of the voice and vision tests: call a service app, speak with espeak-ng, render text."""

from __future__ import annotations

import base64
import io
import time
import wave
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from mcp_platform.runtime.service import ServiceApp, ServiceContext

ACCOUNT = "acct_voice"
FONTS = {
    "DejaVu Sans": "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "DejaVu Serif": "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
    "DejaVu Sans Mono": "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
}


def speech_wav(text: str) -> bytes:
    """`text` as espeak-ng speaks it, in a WAV file: audio a transcription engine hears as words."""
    from tts_service.espeak import espeak

    engine = espeak()
    out = io.BytesIO()
    with wave.open(out, "wb") as file:
        file.setnchannels(1)
        file.setsampwidth(2)
        file.setframerate(engine.sample_rate)
        file.writeframes(engine.speak(text, "en-us", 91, ssml=False))
    return out.getvalue()


def call(app: ServiceApp, tool: str, seconds: float = 60.0, **arguments: Any) -> dict[str, Any]:
    ctx = ServiceContext(
        account_id=ACCOUNT, request_id="r1", deadline_epoch=time.time() + seconds, staging_bucket=app.staging_bucket
    )
    payload = {"tool": tool, "arguments": arguments, "account_id": ACCOUNT, "request_id": "r1"}
    return app.handle(payload, ctx).structured_content


def rendered_text(lines: list[str], font: str = "DejaVu Sans", size: int = 32) -> bytes:
    """A PNG of black `lines` on white, in one of the DejaVu fonts (Debian's fonts-dejavu-core)."""
    face = ImageFont.truetype(FONTS[font], size)
    height = int(size * 1.8)
    width = max(int(face.getlength(line)) for line in lines) + 40
    image = Image.new("RGB", (width, height * len(lines) + 20), "white")
    draw = ImageDraw.Draw(image)
    for i, line in enumerate(lines):
        draw.text((20, 10 + i * height), line, fill="black", font=face)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def word_error_rate(reference: str, hypothesis: str) -> float:
    """Levenshtein distance over words / reference words."""
    ref, hyp = reference.lower().split(), hypothesis.lower().split()
    row = list(range(len(hyp) + 1))
    for i, word in enumerate(ref, 1):
        previous, row[0] = row[0], i
        for j, other in enumerate(hyp, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (word != other))
    return row[len(hyp)] / max(1, len(ref))
