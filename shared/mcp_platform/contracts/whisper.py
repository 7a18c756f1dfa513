"""whisper: speech to text — an OpenAI-compatible transcription API (OpenAI, Groq, faster-whisper or
whisper.cpp servers) or Amazon Transcribe in AWS, pocketsphinx (English, offline) in the local default.

Price: 1 credit per started minute of audio. The router prices a call before the audio is read, so
the caller states the started minutes (`max_minutes`, default 1) and the call reserves that; a
recording of another length, or over the cap, is refused before it is transcribed and costs nothing,
so the charge is always exactly the recording's started minutes.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from mcp_platform.catalogue.registry import Annotations, ToolInput, ToolSpec
from mcp_platform.contracts._common import StatusInput, StatusOutput, status_tool
from mcp_platform.protocol.binary import binary_input
from mcp_platform.protocol.schema import output_schema

SERVICE = "whisper"
MAX_MINUTES = 10
MAX_AUDIO_BYTES = 25 * 1024 * 1024
"""OpenAI's transcription limit; the other engines take the same."""


class TranscribeInput(ToolInput):
    audio: binary_input(  # type: ignore[valid-type]
        "The recording (WAV, MP3, OGG/Opus, FLAC, M4A, WebM).",
        max_bytes=MAX_AUDIO_BYTES,
        media_types=("audio/*", "video/*", "application/octet-stream", "application/ogg"),
        argument="audio",
    )
    language: str | None = Field(
        default=None,
        pattern=r"^[a-zA-Z]{2,3}(-[a-zA-Z]{2})?$",
        description="The spoken language (ISO 639-1, e.g. 'en', 'de'); default: detected where the engine can.",
    )
    timestamps: bool = Field(default=False, description="Also return segments with start and end times.")
    max_minutes: int = Field(
        default=1,
        ge=1,
        le=MAX_MINUTES,
        description="The recording's length in started minutes (1 credit each), which the call reserves: 1 for up "
        "to 60 s, 2 for up to 120 s, ... A different value is refused free, naming the right one.",
    )


NOISE_CONFIDENCE = 0.3
"""Below this confidence a transcript is noise and free (as is one without words): the local engine
scores espeak-ng speech 0.5-0.85 and silence, hiss or a tone 0 (tests/integration/test_whisper_service.py)."""


class Segment(BaseModel):
    start: float = Field(description="Seconds from the start.")
    end: float
    text: str


class TranscribeOutput(BaseModel):
    text: str
    language: str
    duration_s: float
    minutes_billed: int = Field(description="Minutes charged: 0 when the transcript is noise (see note).")
    engine: str
    confidence: float | None = Field(
        default=None,
        ge=0,
        le=1,
        description="0-1 where the engine gives one: the local engine's share of the recording heard as words. "
        f"Below {NOISE_CONFIDENCE} (or with no words) the transcript counts as noise and is not charged.",
    )
    note: str | None = Field(
        default=None, description="Present when the local engine answered (what to expect) or nothing was charged."
    )
    segments: list[Segment] = Field(default_factory=list)


class EngineLanguage(BaseModel):
    code: str
    name: str


class LanguagesOutput(BaseModel):
    engine: str
    count: int
    languages: list[EngineLanguage]
    detection: bool = Field(description="Whether the engine detects the language when none is given.")


class WhisperStatus(StatusOutput):
    engine: str
    accuracy_note: str = Field(description="What to expect of the active engine.")
    missing: list[str]
    max_minutes: int
    max_audio_bytes: int


def _price(arguments: TranscribeInput) -> int:
    return arguments.max_minutes


TOOLS = [
    ToolSpec(
        name="whisper_transcribe",
        service=SERVICE,
        title="Transcribe speech",
        description="Transcribes a recording (URL, staging id or base64) to text, optionally with timed segments. "
        f"1 credit per started minute, stated as max_minutes (a wrong value is refused free, naming the right "
        f"one); at most {MAX_MINUTES} minutes and "
        f"{MAX_AUDIO_BYTES // 1_048_576} MiB. A transcript with no words or a confidence below "
        f"{NOISE_CONFIDENCE} is noise: returned, not charged. `note` says when the offline local engine answered.",
        input_model=TranscribeInput,
        output_schema=output_schema(TranscribeOutput),
        annotations=Annotations(read_only=True, idempotent=True, open_world=False),
        price=_price,
        price_note="1 per started minute (max_minutes)",
        task_support="optional",  # an Amazon Transcribe job for minutes of audio outlasts a synchronous call
    ),
    ToolSpec(
        name="whisper_languages",
        service=SERVICE,
        title="Transcription languages",
        description="The languages the active transcription engine understands. Free.",
        input_model=StatusInput,
        output_schema=output_schema(LanguagesOutput),
    ),
    status_tool(
        SERVICE,
        title="whisper service status",
        description="Active engine, its expected accuracy, missing settings and limits. Free.",
        output_schema=output_schema(WhisperStatus),
    ),
]
