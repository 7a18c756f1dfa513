"""The two speech engines behind one interface: Amazon Polly (AWS) and espeak-ng (local default).

TTS_ENGINE (the function's settings) picks one (`polly` in the template, `espeak` in the local default). Both return
finished audio in the requested format, with its exact duration.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from html import escape
from typing import Any, Protocol

from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from mcp_platform.contracts.tts import Voice
from mcp_platform.protocol.errors import ErrorCode, ToolError
from mcp_platform.storage.aws import configured_client
from tts_service import audio
from tts_service.espeak import EspeakVoice, espeak
from tts_service.settings import settings

POLLY_MAX_TEXT = 2_900
"""Characters per Polly request, under its 3,000 billed-character limit."""
_SENTENCE_END = re.compile(r"(?<=[.!?…。！？])\s+")
_POLLY_FORMATS = {"mp3": "mp3", "ogg": "ogg_vorbis", "wav": "pcm"}
_PCM_RATE = 16_000
_DEFAULT_LANGUAGE = "en-US"


@dataclass(frozen=True)
class Speech:
    text: str | None
    ssml: str | None
    voice: str | None
    language: str | None
    fmt: str
    rate: int


@dataclass(frozen=True)
class Audio:
    data: bytes
    fmt: str
    voice: str
    language: str
    engine: str
    parts: int


class Engine(Protocol):
    name: str

    @property
    def version(self) -> str: ...

    def voices(self, language: str | None = None) -> list[Voice]: ...

    def synthesize(self, speech: Speech) -> Audio: ...


def split_sentences(text: str, limit: int = POLLY_MAX_TEXT) -> list[str]:
    """`text` in pieces of at most `limit` characters, cut after sentence ends (else at spaces)."""
    pieces: list[str] = []
    current = ""
    for found in _SENTENCE_END.split(text.strip()):
        sentence = found
        while len(sentence) > limit:  # one very long sentence: cut at the last space that fits
            cut = sentence.rfind(" ", 0, limit)
            cut = cut if cut > 0 else limit
            if current:
                pieces.append(current)
                current = ""
            pieces.append(sentence[:cut].strip())
            sentence = sentence[cut:].strip()
        if current and len(current) + 1 + len(sentence) > limit:
            pieces.append(current)
            current = sentence
        else:
            current = f"{current} {sentence}".strip()
    if current:
        pieces.append(current)
    return pieces


class EspeakEngine:
    name = "espeak-ng"

    @property
    def version(self) -> str:
        return espeak().version

    def voices(self, language: str | None = None) -> list[Voice]:
        wanted = language.lower() if language else None
        return [
            Voice(id=v.identifier, name=v.name, language=v.language, gender=v.gender, engines=["espeak-ng"])
            for v in espeak().voices()
            if wanted is None or v.language.lower() == wanted or v.language.lower().split("-")[0] == wanted
        ]

    def synthesize(self, speech: Speech) -> Audio:
        voice = self._pick(speech.voice, speech.language or _DEFAULT_LANGUAGE)
        text = speech.ssml or speech.text or ""
        pcm = espeak().speak(text, voice.identifier, speech.rate, ssml=speech.ssml is not None)
        if not pcm:
            raise ToolError("text: espeak-ng produced no audio for it", ErrorCode.INVALID_ARGUMENTS)
        data = audio.encode(pcm, espeak().sample_rate, speech.fmt)
        return Audio(data, speech.fmt, voice.identifier, voice.language, self.name, 1)

    @staticmethod
    def _pick(wanted: str | None, language: str) -> EspeakVoice:
        """A voice by identifier, name or language ('en-us'), else the first of the language ('en' → en-gb)."""
        voices = espeak().voices()
        key = (wanted or language).lower()
        exact = next((v for v in voices if key in {v.identifier.lower(), v.name.lower(), v.language}), None)
        match = exact or next((v for v in voices if v.language.split("-")[0] == key.split("-")[0]), None)
        if match is None:
            field = "voice" if wanted else "language"
            message = f"{field}: espeak-ng has no voice for {key!r}; see tts_voices and tts_languages"
            raise ToolError(message, ErrorCode.INVALID_ARGUMENTS)
        return match


class PollyEngine:
    name = "polly"

    @property
    def version(self) -> str:
        return "Amazon Polly"

    @cache  # noqa: B019 - one engine per container; the voice list changes with AWS releases only
    def _all_voices(self) -> tuple[dict[str, Any], ...]:
        try:
            return tuple(_polly().describe_voices(IncludeAdditionalLanguageCodes=True)["Voices"])
        except (BotoCoreError, ClientError) as exc:
            raise _unavailable("DescribeVoices", exc) from None

    def voices(self, language: str | None = None) -> list[Voice]:
        return [
            Voice(
                id=v["Id"],
                name=v.get("Name", v["Id"]),
                language=v["LanguageCode"],
                gender=v.get("Gender"),
                engines=v.get("SupportedEngines") or ["standard"],
            )
            for v in self._all_voices()
            if language is None or v["LanguageCode"].lower() == language.lower()
        ]

    def synthesize(self, speech: Speech) -> Audio:
        language = speech.language or _DEFAULT_LANGUAGE
        voice = self._voice(speech.voice, language)
        engine = "neural" if "neural" in voice.engines else "standard"
        requests = (
            [speech.ssml]
            if speech.ssml
            else [_with_rate(piece, speech.rate) for piece in split_sentences(speech.text or "")]
        )
        pieces = [self._one(text, voice.id, engine, speech.fmt) for text in requests]
        if speech.fmt == "wav":  # Polly's pcm is raw samples
            data = audio.wav(b"".join(pieces), _PCM_RATE)
        else:
            try:
                data = audio.join(pieces, speech.fmt)
            except ValueError as exc:
                raise _unavailable("SynthesizeSpeech", exc) from None
        return Audio(data, speech.fmt, voice.id, voice.language, f"polly-{engine}", len(pieces))

    def _voice(self, wanted: str | None, language: str) -> Voice:
        voices = self.voices()
        if wanted:
            match = next((v for v in voices if v.id.lower() == wanted.lower()), None)
            if match is None:
                raise ToolError(f"voice: Polly has no voice {wanted!r}; see tts_voices", ErrorCode.INVALID_ARGUMENTS)
            return match
        of_language = [v for v in voices if v.language.lower() == language.lower()]
        if not of_language:
            raise ToolError(
                f"language: Polly has no voice for {language!r}; see tts_languages", ErrorCode.INVALID_ARGUMENTS
            )
        return next((v for v in of_language if "neural" in v.engines), of_language[0])

    def _one(self, text: str, voice: str, engine: str, fmt: str) -> bytes:
        options: dict[str, Any] = {"SampleRate": str(_PCM_RATE)} if fmt == "wav" else {}
        try:
            response = _polly().synthesize_speech(
                Text=text,
                TextType="ssml" if text.startswith("<speak") else "text",
                VoiceId=voice,
                Engine=engine,
                OutputFormat=_POLLY_FORMATS[fmt],
                **options,
            )
            return bytes(response["AudioStream"].read())
        except ClientError as exc:
            if exc.response["Error"].get("Code") in {"InvalidSsmlException", "TextLengthExceededException"}:
                raise ToolError(
                    f"ssml: Polly refused it ({exc.response['Error'].get('Message', '')})", ErrorCode.INVALID_ARGUMENTS
                ) from None
            raise _unavailable("SynthesizeSpeech", exc) from None
        except BotoCoreError as exc:
            raise _unavailable("SynthesizeSpeech", exc) from None


def _with_rate(text: str, rate: int) -> str:
    return text if rate == 100 else f'<speak><prosody rate="{rate}%">{escape(text)}</prosody></speak>'


def _unavailable(action: str, exc: Exception) -> ToolError:
    code = exc.response["Error"].get("Code", "error") if isinstance(exc, ClientError) else type(exc).__name__
    return ToolError(f"Amazon Polly: {action} failed ({code})", ErrorCode.UPSTREAM_UNAVAILABLE, backend="Amazon Polly")


@cache
def _polly() -> Any:
    return configured_client("polly", Config(connect_timeout=3, read_timeout=15, retries={"total_max_attempts": 2}))


def engine() -> Engine:
    """The engine the settings' TTS_ENGINE names (polly or espeak)."""
    return _engine(settings().tts_engine)


@cache
def _engine(name: str) -> Engine:
    """One engine of each kind per container (Polly's voice list is kept on it)."""
    return EspeakEngine() if name == "espeak" else PollyEngine()
