"""The transcription engines behind one interface.

WHISPER_ENGINE (the function's settings) picks one: `pocketsphinx` (offline, English; the local default), `openai` (any
OpenAI-compatible `/audio/transcriptions` endpoint at WHISPER_BASE_URL: OpenAI, Groq, faster-whisper
or whisper.cpp servers) or `transcribe` (Amazon Transcribe, a job on the staged recording).
"""

from __future__ import annotations

import json
import math
import re
import threading
import time
import uuid
from array import array
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, Protocol

import httpx
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from mcp_platform.contracts.whisper import EngineLanguage, Segment
from mcp_platform.outbound import upstream
from mcp_platform.protocol import json_text
from mcp_platform.protocol.errors import ErrorCode, ToolError
from mcp_platform.storage import staging_store
from mcp_platform.storage.aws import configured_client
from mcp_platform.storage.secrets import read_secret
from whisper_service.audio import RATE
from whisper_service.settings import DEFAULT_OPENAI_URL, settings

if TYPE_CHECKING:
    from mcp_platform.runtime.service import ServiceContext

NOT_CONFIGURED = "provider_not_configured"
KEY_ENV = "WHISPER_API_KEY_PARAMETER"
_PAUSE_FRAMES = 30
"""A silence of 0.3 s (pocketsphinx counts 100 frames a second) ends a segment."""
_ALTERNATE = re.compile(r"\(\d+\)$")
_SILENCE_POWER = (32768 * 10 ** (-50 / 20)) ** 2
"""Mean square sample of a -50 dBFS signal: quieter than any recorded speech."""


@dataclass
class Transcript:
    text: str
    language: str
    segments: list[Segment] = field(default_factory=list)
    confidence: float | None = None
    """0-1, where the engine can say: how much of the recording it heard as words (None: no measure)."""


@dataclass(frozen=True)
class Recording:
    """What an engine may need: the decoded PCM, and the original file for engines that take files."""

    pcm: bytes
    data: bytes
    media_type: str
    filename: str


class Engine(Protocol):
    name: str
    detection: bool
    accuracy_note: str
    local: bool
    """Runs offline in the function (the local default's engine), not at a provider."""

    def languages(self) -> list[EngineLanguage]: ...

    def missing(self) -> list[str]: ...

    def transcribe(self, recording: Recording, language: str | None, ctx: ServiceContext) -> Transcript: ...


class Pocketsphinx:
    """CMU pocketsphinx 5 with the US-English acoustic model, language model and dictionary of its wheel."""

    name = "pocketsphinx"
    detection = False
    local = True
    accuracy_note = (
        "pocketsphinx (offline, US English only) is a small 2010s-era recogniser with a general language model: "
        "on espeak-ng's synthetic speech we measure word error rates of 0.7-0.9 (bench/voice.py), and clear human "
        "speech does better but still misses many words. Use the openai or transcribe engine for real work."
    )

    def __init__(self) -> None:
        from pocketsphinx import Decoder

        self._decoder = Decoder(samprate=RATE, loglevel="FATAL", cmn="batch")  # each call on its own, no carried state
        self._lock = threading.Lock()

    def languages(self) -> list[EngineLanguage]:
        return [EngineLanguage(code="en", name="English (US)")]

    def missing(self) -> list[str]:
        return []

    def transcribe(self, recording: Recording, language: str | None, ctx: ServiceContext) -> Transcript:
        if language and language.lower().split("-")[0] != "en":
            raise ToolError(
                f"language: the local engine (pocketsphinx) understands English only, not {language!r}",
                ErrorCode.INVALID_ARGUMENTS,
            )
        with self._lock:
            # A fresh front end per call: its noise estimate would otherwise carry over from earlier recordings,
            # so one word could come out differently depending on what the container heard before.
            self._decoder.reinit_feat()
            self._decoder.start_utt()
            self._decoder.process_raw(recording.pcm, full_utt=True)
            self._decoder.end_utt()
            words = [(seg.word, seg.start_frame, seg.end_frame) for seg in self._decoder.seg()]
            frames = self._decoder.n_frames()
        spoken = _spoken(words)
        return Transcript(
            text=" ".join(w for w, _, _ in spoken),
            language="en",
            segments=_segments(words),
            confidence=_coverage(spoken, frames) if _audible(recording.pcm) else 0.0,
        )


def _coverage(spoken: list[tuple[str, int, int]], frames: int) -> float:
    """pocketsphinx's confidence: the share of the recording's frames it matched to dictionary words.

    Its word posteriors are 1.0 whatever it hears, so they say nothing. Coverage does: espeak-ng speech
    scores 0.5-0.85, while hiss and a pure tone come back as no word at all (noise fillers), 0.
    """
    return round(min(1.0, sum(end - start + 1 for _, start, end in spoken) / frames), 2) if frames else 0.0


def _audible(pcm: bytes) -> bool:
    """Above -50 dBFS RMS: digital silence makes pocketsphinx hear a word ('in') over the whole recording."""
    samples = array("h", pcm)
    return bool(samples) and math.sumprod(samples, samples) / len(samples) > _SILENCE_POWER


def _spoken(words: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    return [(_ALTERNATE.sub("", w), s, e) for w, s, e in words if not w.startswith(("<", "[", "+"))]


def _segments(words: list[tuple[str, int, int]]) -> list[Segment]:
    segments: list[Segment] = []
    current: list[tuple[str, int, int]] = []
    for word, start, end in words:
        pause = word.startswith("<sil") and end - start >= _PAUSE_FRAMES
        if pause and current:
            segments.append(_segment(current))
            current = []
        elif not word.startswith(("<", "[", "+")):
            current.append((_ALTERNATE.sub("", word), start, end))
    if current:
        segments.append(_segment(current))
    return segments


def _segment(words: list[tuple[str, int, int]]) -> Segment:
    return Segment(start=words[0][1] / 100, end=(words[-1][2] + 1) / 100, text=" ".join(w for w, _, _ in words))


class OpenAiCompatible:
    """POST {WHISPER_BASE_URL}/audio/transcriptions, multipart, `verbose_json` for segments."""

    name = "openai"
    detection = True
    local = False
    accuracy_note = "An OpenAI-compatible Whisper endpoint: near-human accuracy on clear speech in ~100 languages."

    def languages(self) -> list[EngineLanguage]:
        return [EngineLanguage(code=code, name=name) for code, name in WHISPER_LANGUAGES.items()]

    def missing(self) -> list[str]:
        base = settings().whisper_base_url
        needs_key = base.rstrip("/") == DEFAULT_OPENAI_URL and not settings().whisper_api_key_parameter
        return [KEY_ENV] if needs_key else []

    def transcribe(self, recording: Recording, language: str | None, ctx: ServiceContext) -> Transcript:
        if missing := self.missing():
            raise ToolError(
                f"whisper: set {missing[0]} (the endpoint's API key)", NOT_CONFIGURED, missing_setting=missing[0]
            )
        base = settings().whisper_base_url.rstrip("/")
        reference = settings().whisper_api_key_parameter
        key = read_secret(reference, setting=KEY_ENV, what="the transcription API key") if reference else None
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        form = {"model": settings().whisper_model, "response_format": "verbose_json"}
        if language:
            form["language"] = language.split("-")[0].lower()
        files = {"file": (recording.filename, recording.data, recording.media_type)}
        try:
            with httpx.Client(timeout=max(2.0, ctx.seconds_left() - 2), trust_env=False) as client:
                response = client.post(
                    f"{base}/audio/transcriptions",
                    data={**form, "timestamp_granularities[]": "segment"},
                    files=files,
                    headers=headers,
                )
        except httpx.HTTPError as exc:
            raise upstream.unreachable("the transcription endpoint", exc) from None
        if response.status_code != 200:
            raise upstream.http_failure("the transcription endpoint", response.status_code)
        try:
            body = json_text.loads(response.content)
        except ValueError:
            raise upstream.bad_answer("the transcription endpoint", "not JSON") from None
        segments = [
            Segment(start=float(s["start"]), end=float(s["end"]), text=str(s["text"]).strip())
            for s in body.get("segments") or []
        ]
        return Transcript(
            text=str(body.get("text", "")).strip(), language=_code(body.get("language"), language), segments=segments
        )


def _code(reported: str | None, asked: str | None) -> str:
    """OpenAI reports the language's English name ('english'); give its code."""
    if reported:
        by_name = {name.lower(): code for code, name in WHISPER_LANGUAGES.items()}
        return by_name.get(reported.lower(), reported.lower())
    return (asked or "und").split("-")[0].lower()


class AmazonTranscribe:
    """A Transcribe job on the staged recording, polled within the call's time."""

    name = "transcribe"
    detection = True
    local = False
    accuracy_note = "Amazon Transcribe: high accuracy on clear speech; language identification when none is given."

    def languages(self) -> list[EngineLanguage]:
        return [EngineLanguage(code=code, name=name) for code, name in TRANSCRIBE_LANGUAGES.items()]

    def missing(self) -> list[str]:
        return [] if settings().staging_bucket else ["STAGING_BUCKET"]

    def transcribe(self, recording: Recording, language: str | None, ctx: ServiceContext) -> Transcript:
        store = staging_store.store_for(ctx.staging_bucket)
        staged = store.put(
            ctx.account_id, recording.data, recording.media_type, filename=recording.filename, ttl_s=3600
        )
        job = f"mcp-{uuid.uuid4().hex}"
        media_uri = f"s3://{store.bucket}/{store.key_of(ctx.account_id, staged.id)}"
        output_key = f"transcribe/{job}.json"
        options: dict[str, Any] = (
            {"LanguageCode": TRANSCRIBE_CODES.get(language.split("-")[0].lower(), language)}
            if language
            else {"IdentifyLanguage": True}
        )
        try:
            _transcribe().start_transcription_job(
                TranscriptionJobName=job,
                Media={"MediaFileUri": media_uri},
                OutputBucketName=store.bucket,
                OutputKey=output_key,
                **options,
            )
            status = self._wait(job, ctx)
        except (BotoCoreError, ClientError) as exc:
            raise _aws_unavailable(exc) from None
        if status["TranscriptionJobStatus"] != "COMPLETED":
            raise ToolError(
                f"Amazon Transcribe: the job failed ({status.get('FailureReason', 'no reason given')})",
                ErrorCode.UPSTREAM_UNAVAILABLE,
                backend="Amazon Transcribe",
            )
        try:
            result = json.loads(store.client.get_object(Bucket=store.bucket, Key=output_key)["Body"].read())
        except (BotoCoreError, ClientError, ValueError) as exc:
            # A finished job whose transcript is missing, unreadable or not JSON: the backend failed, not us.
            raise _aws_unavailable(exc, "failed: the finished job's transcript could not be read") from None
        return _from_transcribe(result, status.get("LanguageCode") or language or "und")

    @staticmethod
    def _wait(job: str, ctx: ServiceContext) -> dict[str, Any]:
        delay = 1.0
        while True:
            status = _transcribe().get_transcription_job(TranscriptionJobName=job)["TranscriptionJob"]
            if status["TranscriptionJobStatus"] in {"COMPLETED", "FAILED"}:
                return status
            if ctx.seconds_left() < delay + 2:
                raise ToolError(
                    "whisper_transcribe: Amazon Transcribe did not finish within this call; run it as a task "
                    "(tools/call with task) or send a shorter recording",
                    "timeout",
                )
            time.sleep(delay)
            delay = min(delay * 1.5, 5.0)


def _from_transcribe(result: dict[str, Any], language: str) -> Transcript:
    body = result.get("results", {})
    text = " ".join(t.get("transcript", "") for t in body.get("transcripts", [])).strip()
    segments = [
        Segment(start=float(s["start_time"]), end=float(s["end_time"]), text=s.get("transcript", "").strip())
        for s in body.get("audio_segments", [])
    ]
    return Transcript(text=text, language=language.split("-")[0].lower(), segments=segments)


def _aws_unavailable(exc: Exception, failure: str = "failed") -> ToolError:
    code = exc.response["Error"].get("Code", "error") if isinstance(exc, ClientError) else type(exc).__name__
    return ToolError(
        f"Amazon Transcribe {failure} ({code})", ErrorCode.UPSTREAM_UNAVAILABLE, backend="Amazon Transcribe"
    )


@cache
def _transcribe() -> Any:
    return configured_client(
        "transcribe", Config(connect_timeout=3, read_timeout=10, retries={"total_max_attempts": 2})
    )


WHISPER_LANGUAGES = {
    "en": "English",
    "de": "German",
    "es": "Spanish",
    "fr": "French",
    "it": "Italian",
    "pt": "Portuguese",
    "nl": "Dutch",
    "pl": "Polish",
    "ru": "Russian",
    "uk": "Ukrainian",
    "hu": "Hungarian",
    "cs": "Czech",
    "sv": "Swedish",
    "da": "Danish",
    "fi": "Finnish",
    "no": "Norwegian",
    "el": "Greek",
    "tr": "Turkish",
    "ar": "Arabic",
    "he": "Hebrew",
    "hi": "Hindi",
    "ja": "Japanese",
    "ko": "Korean",
    "zh": "Chinese",
    "vi": "Vietnamese",
    "th": "Thai",
    "id": "Indonesian",
    "ro": "Romanian",
    "bg": "Bulgarian",
    "hr": "Croatian",
}
"""A subset of the ~100 languages Whisper models know (the ones with low error rates)."""
TRANSCRIBE_CODES = {
    "en": "en-US",
    "de": "de-DE",
    "es": "es-ES",
    "fr": "fr-FR",
    "it": "it-IT",
    "pt": "pt-BR",
    "nl": "nl-NL",
    "pl": "pl-PL",
    "ru": "ru-RU",
    "uk": "uk-UA",
    "hu": "hu-HU",
    "cs": "cs-CZ",
    "sv": "sv-SE",
    "da": "da-DK",
    "fi": "fi-FI",
    "no": "no-NO",
    "el": "el-GR",
    "tr": "tr-TR",
    "ar": "ar-SA",
    "he": "he-IL",
    "hi": "hi-IN",
    "ja": "ja-JP",
    "ko": "ko-KR",
    "zh": "zh-CN",
    "vi": "vi-VN",
    "th": "th-TH",
    "id": "id-ID",
    "ro": "ro-RO",
}
TRANSCRIBE_LANGUAGES = {code: WHISPER_LANGUAGES[code] for code in TRANSCRIBE_CODES}


def engine() -> Engine:
    """The engine the settings' WHISPER_ENGINE names."""
    return _engine(settings().whisper_engine)


@cache
def _engine(name: str) -> Engine:
    if name == "pocketsphinx":
        return Pocketsphinx()
    return OpenAiCompatible() if name == "openai" else AmazonTranscribe()
