"""tts, whisper and vision through the official mcp client against the local default's offline engines."""

from __future__ import annotations

import pytest
from mcp import Client
from tool_calls import Tools

from tests.voice_support import b64, rendered_text

pytestmark = pytest.mark.e2e


@pytest.mark.anyio
async def test_speak_transcribe_and_read(local_server) -> None:
    async with Client(local_server.url_with_key) as client:
        tools = await Tools.listed(client)
        estimate = await tools.free("tts_estimate", {"text": "one two three four five"})
        speech = await tools.charged(
            "tts_synthesize",
            {"text": "one two three four five", "voice": "en-us", "rate": 91, "format": "wav"},
            estimate["credits"],
        )
        assert speech["engine"] == "espeak-ng" and speech["media_type"] == "audio/wav"

        heard = await tools.charged("whisper_transcribe", {"audio": speech["file"]["id"], "timestamps": True}, 1)
        assert {"two", "three", "four", "five"} <= set(heard["text"].split())
        too_long = await tools.refused(
            "whisper_transcribe", {"audio": speech["file"]["id"], "max_minutes": 11}, "invalid_arguments"
        )
        assert "max_minutes" in too_long["error"]

        read = await tools.charged("vision_ocr", {"image": b64(rendered_text(["Total due 18.40 EUR"]))}, 2)
        assert read["text"] == "Total due 18.40 EUR"
        await tools.refused("vision_labels", {"image": b64(rendered_text(["x"]))}, "provider_not_configured")
        status = await tools.free("vision_status", {})
        assert status["ocr"] == "rapidocr"
