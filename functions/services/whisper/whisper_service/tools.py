"""The whisper tools: decode, check the caps, transcribe with the active engine."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from mcp_platform.contracts.whisper import (
    MAX_AUDIO_BYTES,
    MAX_MINUTES,
    NOISE_CONFIDENCE,
    LanguagesOutput,
    TranscribeOutput,
    WhisperStatus,
)
from mcp_platform.protocol.errors import ErrorCode, ToolError
from mcp_platform.runtime.service import ToolOutput
from whisper_service.audio import pcm16k, seconds
from whisper_service.engines import Recording, engine

if TYPE_CHECKING:
    from mcp_platform.contracts._common import StatusInput
    from mcp_platform.contracts.whisper import TranscribeInput
    from mcp_platform.runtime.service import ServiceContext

_EXTENSIONS = {
    "audio/mpeg": "mp3",
    "audio/ogg": "ogg",
    "application/ogg": "ogg",
    "audio/flac": "flac",
    "audio/mp4": "m4a",
}


def whisper_transcribe(arguments: TranscribeInput, ctx: ServiceContext) -> ToolOutput:
    blob = arguments.audio.load(ctx)
    pcm = pcm16k(blob.data)
    duration = seconds(pcm)
    minutes = max(1, math.ceil(duration / 60))
    if minutes > MAX_MINUTES:
        raise ToolError(
            f"audio: {duration / 60:.1f} minutes; at most {MAX_MINUTES} per call", ErrorCode.INVALID_ARGUMENTS
        )
    if minutes != arguments.max_minutes:
        # The router reserved max_minutes credits; the charge must be exactly the started minutes.
        raise ToolError(
            f"audio: {duration / 60:.2f} minutes of audio cost {minutes} credit(s) (1 per started minute); "
            f"call again with max_minutes={minutes}; this call was not charged",
            ErrorCode.INVALID_ARGUMENTS,
            minutes=minutes,
        )
    name = blob.filename or f"audio.{_EXTENSIONS.get(blob.media_type, 'wav')}"
    recording = Recording(pcm=pcm, data=blob.data, media_type=blob.media_type, filename=name)
    active = engine()
    transcript = active.transcribe(recording, arguments.language, ctx)
    noise = not transcript.text or (transcript.confidence is not None and transcript.confidence < NOISE_CONFIDENCE)
    notes = [f"local engine ({active.name}): {active.accuracy_note}"] if active.local else []
    if noise:
        notes.append(
            f"heard as noise (no words, or confidence below {NOISE_CONFIDENCE}): not charged; "
            "send clearer speech, or use another engine"
        )
    out = TranscribeOutput(
        text=transcript.text,
        language=transcript.language,
        duration_s=round(duration, 3),
        minutes_billed=0 if noise else minutes,
        engine=active.name,
        confidence=transcript.confidence,
        note=" ".join(notes) or None,
        segments=transcript.segments if arguments.timestamps else [],
    )
    return ToolOutput(structured=out.model_dump(mode="json", exclude_none=True), waive_charge=noise)


def whisper_languages(_arguments: StatusInput, _ctx: ServiceContext) -> LanguagesOutput:
    languages = engine().languages()
    return LanguagesOutput(
        engine=engine().name, count=len(languages), languages=languages, detection=engine().detection
    )


def whisper_status(_arguments: StatusInput, _ctx: ServiceContext) -> WhisperStatus:
    return WhisperStatus(
        engine=engine().name,
        accuracy_note=engine().accuracy_note,
        missing=engine().missing(),
        max_minutes=MAX_MINUTES,
        max_audio_bytes=MAX_AUDIO_BYTES,
    )
