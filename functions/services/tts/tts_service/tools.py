"""The tts tools over the active engine."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcp_platform.contracts.tts import (
    CHARACTERS_PER_CREDIT,
    MAX_CHARACTERS,
    MAX_SSML,
    SECONDS_PER_CHARACTER,
    EstimateOutput,
    Language,
    LanguagesOutput,
    SynthesizeOutput,
    TtsStatus,
    VoicesOutput,
    credits_for,
)
from mcp_platform.protocol.binary import stage_output
from mcp_platform.protocol.errors import ErrorCode, ToolError
from mcp_platform.runtime.service import ToolOutput
from tts_service import audio
from tts_service.engines import Speech, engine

if TYPE_CHECKING:
    from mcp_platform.contracts._common import StatusInput
    from mcp_platform.contracts.tts import EstimateInput, SynthesizeInput, VoicesInput
    from mcp_platform.runtime.service import ServiceContext


def tts_synthesize(arguments: SynthesizeInput, ctx: ServiceContext) -> ToolOutput:
    speech = Speech(
        arguments.text, arguments.ssml, arguments.voice, arguments.language, arguments.format, arguments.rate
    )
    made = engine().synthesize(speech)
    media_type = audio.MEDIA_TYPES[made.fmt]
    staged = stage_output(made.data, media_type, ctx, filename=f"speech.{made.fmt}")
    out = SynthesizeOutput(
        file=staged.file,
        media_type=media_type,
        duration_s=_duration(made.data),
        characters=arguments.characters,
        voice=made.voice,
        language=made.language,
        engine=made.engine,
        parts=made.parts,
    )
    return ToolOutput(structured=out.model_dump(mode="json", exclude_none=True), content=staged.content)


def _duration(data: bytes) -> float:
    try:
        return audio.duration_s(data)
    except ValueError as exc:
        raise ToolError(
            f"the speech engine returned audio that does not decode ({exc})", ErrorCode.UPSTREAM_UNAVAILABLE
        ) from None


def tts_voices(arguments: VoicesInput, _ctx: ServiceContext) -> VoicesOutput:
    voices = engine().voices(arguments.language)
    return VoicesOutput(engine=engine().name, count=len(voices), voices=voices)


def tts_languages(_arguments: StatusInput, _ctx: ServiceContext) -> LanguagesOutput:
    counts: dict[str, tuple[str, int]] = {}
    for voice in engine().voices():
        name, count = counts.get(voice.language, (voice.name if engine().name == "espeak-ng" else voice.language, 0))
        counts[voice.language] = (name, count + 1)
    languages = [Language(code=code, name=name, voices=count) for code, (name, count) in sorted(counts.items())]
    return LanguagesOutput(engine=engine().name, count=len(languages), languages=languages)


def tts_estimate(arguments: EstimateInput, _ctx: ServiceContext) -> EstimateOutput:
    characters = arguments.characters
    return EstimateOutput(
        characters=characters,
        credits=credits_for(characters),
        estimated_seconds=round(characters * SECONDS_PER_CHARACTER, 1),
    )


def tts_status(_arguments: StatusInput, _ctx: ServiceContext) -> TtsStatus:
    return TtsStatus(
        engine=engine().name,
        engine_version=engine().version,
        formats=sorted(audio.MEDIA_TYPES),
        max_characters=MAX_CHARACTERS,
        max_ssml_characters=MAX_SSML,
        characters_per_credit=CHARACTERS_PER_CREDIT,
    )
