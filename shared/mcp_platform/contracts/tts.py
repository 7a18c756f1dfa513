"""tts: text or SSML to speech — Amazon Polly in AWS (neural voices where the voice has them),
espeak-ng in the local default; the audio is staged for download.

Price: 1 credit per started 1,000 characters of text (SSML tags do not count, as Polly bills);
tts_estimate answers exactly what tts_synthesize charges.
"""

from __future__ import annotations

import math
import re
from typing import Annotated, Literal, Self
from xml.etree import ElementTree

from pydantic import BaseModel, Field, WithJsonSchema, field_validator, model_validator

from mcp_platform.catalogue.registry import Annotations, ToolInput, ToolSpec
from mcp_platform.contracts._common import StatusInput, StatusOutput, status_tool
from mcp_platform.contracts._staging import STAGED_OBJECT_SCHEMA
from mcp_platform.protocol.schema import output_schema

SERVICE = "tts"
MAX_CHARACTERS = 100_000
MAX_SSML = 6_000
"""Polly takes at most 6,000 characters of SSML per request; SSML is not split (tags would break)."""
CHARACTERS_PER_CREDIT = 1_000
SECONDS_PER_CHARACTER = 1 / 15
"""Read-aloud speed at rate 100 (about 170 words a minute), for estimates."""
_TAG = re.compile(r"<[^>]*>")
_LANGUAGE = r"^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$"


def spoken_characters(text: str | None, ssml: str | None) -> int:
    """Characters billed: the text, or the SSML without its tags (entities count once)."""
    if text is not None:
        return len(text)
    plain = _TAG.sub("", ssml or "")
    return len(re.sub(r"&[a-zA-Z#0-9]+;", "x", plain))


def credits_for(characters: int) -> int:
    return max(1, math.ceil(characters / CHARACTERS_PER_CREDIT))


class _Speech(ToolInput):
    text: str | None = Field(default=None, min_length=1, max_length=MAX_CHARACTERS, description="Plain text to read.")
    ssml: str | None = Field(
        default=None,
        min_length=8,
        max_length=MAX_SSML,
        description="SSML instead of text: one <speak> element (breaks, emphasis, prosody, say-as).",
    )
    voice: str | None = Field(
        default=None,
        max_length=64,
        description="A voice id from tts_voices (e.g. 'Joanna' on Polly, 'en-us' on espeak-ng); default: the "
        "language's default voice.",
    )

    @field_validator("ssml")
    @classmethod
    def _well_formed(cls, value: str | None) -> str | None:
        if value is None:
            return value
        try:
            root = ElementTree.fromstring(value)
        except ElementTree.ParseError as exc:
            raise ValueError(f"not well-formed XML ({exc})") from None
        if root.tag.rsplit("}", 1)[-1] != "speak":
            raise ValueError("the root element must be <speak>")
        return value

    @model_validator(mode="after")
    def _one_source(self) -> Self:
        if (self.text is None) == (self.ssml is None):
            raise ValueError("give exactly one of text and ssml")
        return self

    @property
    def characters(self) -> int:
        return spoken_characters(self.text, self.ssml)


class SynthesizeInput(_Speech):
    language: str | None = Field(
        default=None, pattern=_LANGUAGE, description="BCP 47 language (e.g. 'en-US', 'de-DE'); default en-US."
    )
    format: Literal["mp3", "ogg", "wav"] = Field(default="mp3", description="Audio format of the file.")
    rate: int = Field(default=100, ge=50, le=200, description="Speaking rate in percent of normal.")


class EstimateInput(_Speech):
    pass


class VoicesInput(ToolInput):
    language: str | None = Field(default=None, pattern=_LANGUAGE, description="Only voices of this language.")


class SynthesizeOutput(BaseModel):
    file: Annotated[dict[str, object], WithJsonSchema(STAGED_OBJECT_SCHEMA)]
    media_type: str
    duration_s: float
    characters: int
    voice: str
    language: str
    engine: str = Field(description="polly-neural, polly-standard or espeak-ng.")
    parts: int = Field(description="Requests the text was split into (at sentence boundaries) and joined from.")


class Voice(BaseModel):
    id: str
    name: str
    language: str
    gender: str | None = None
    engines: list[str]


class VoicesOutput(BaseModel):
    engine: str
    count: int
    voices: list[Voice]


class Language(BaseModel):
    code: str
    name: str
    voices: int


class LanguagesOutput(BaseModel):
    engine: str
    count: int
    languages: list[Language]


class EstimateOutput(BaseModel):
    characters: int
    credits: int = Field(description="What tts_synthesize charges for this input.")
    estimated_seconds: float = Field(description="Approximate audio length at rate 100.")


class TtsStatus(StatusOutput):
    engine: str
    engine_version: str
    formats: list[str]
    max_characters: int
    max_ssml_characters: int
    characters_per_credit: int


def _synthesize_price(arguments: SynthesizeInput) -> int:
    return credits_for(arguments.characters)


_READ = Annotations(read_only=True, idempotent=True, open_world=False)

TOOLS = [
    ToolSpec(
        name="tts_synthesize",
        service=SERVICE,
        title="Text to speech",
        description="Reads text or SSML aloud and stages the audio (mp3, ogg or wav) with a download URL: Amazon "
        "Polly (neural where the voice has it) in AWS, espeak-ng locally. Long text is split at sentence "
        "boundaries and joined into one file. 1 credit per started 1,000 characters (see tts_estimate).",
        input_model=SynthesizeInput,
        output_schema=output_schema(SynthesizeOutput),
        annotations=Annotations(read_only=True, idempotent=False, open_world=False),
        price=_synthesize_price,
        price_note="1 per started 1,000 characters",
    ),
    ToolSpec(
        name="tts_voices",
        service=SERVICE,
        title="Text-to-speech voices",
        description="The voices of the active engine, optionally of one language, with the engines each supports. "
        "Free.",
        input_model=VoicesInput,
        output_schema=output_schema(VoicesOutput),
        annotations=_READ,
    ),
    ToolSpec(
        name="tts_languages",
        service=SERVICE,
        title="Text-to-speech languages",
        description="The languages the active engine speaks and how many voices each has. Free.",
        input_model=StatusInput,
        output_schema=output_schema(LanguagesOutput),
        annotations=_READ,
    ),
    ToolSpec(
        name="tts_estimate",
        service=SERVICE,
        title="Estimate a text-to-speech call",
        description="Characters, credits and approximate seconds of audio tts_synthesize would produce for this "
        "text or SSML; the credits are exactly what it charges. Free.",
        input_model=EstimateInput,
        output_schema=output_schema(EstimateOutput),
        annotations=_READ,
    ),
    status_tool(
        SERVICE,
        title="tts service status",
        description="Active engine and version, formats and limits. Free.",
        output_schema=output_schema(TtsStatus),
    ),
]
