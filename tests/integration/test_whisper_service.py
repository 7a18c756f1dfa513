"""whisper_*: espeak-ng speaks, pocketsphinx transcribes (both real); the OpenAI-compatible endpoint is a
loopback fake written from the API reference; Amazon Transcribe through moto (which writes no transcript,
so the test puts one where the job's output goes)."""

from __future__ import annotations

import base64
import io
import json
import math
import random
import struct
import wave
from typing import TYPE_CHECKING

import boto3
import pytest

from mcp_platform.contracts.whisper import NOISE_CONFIDENCE
from staging_support import service_store, staging_bucket  # noqa: F401 - fixture
from tests.support.fake_transcription import FakeTranscription
from tts_service.app import app as tts
from voice_support import ACCOUNT, b64, call, word_error_rate
from whisper_service import engines
from whisper_service.app import app

if TYPE_CHECKING:
    from collections.abc import Callable

SENTENCE = "one two three four five"


@pytest.fixture(autouse=True)
def _engines(staging_bucket: str, monkeypatch: pytest.MonkeyPatch, reload_settings: Callable[[], None]) -> None:
    monkeypatch.setenv("TTS_ENGINE", "espeak")
    monkeypatch.setenv("WHISPER_ENGINE", "pocketsphinx")
    reload_settings()


def spoken(text: str, fmt: str = "wav", rate: int = 91) -> bytes:
    out = call(tts, "tts_synthesize", text=text, voice="en-us", format=fmt, rate=rate)
    _, data = service_store().read(ACCOUNT, out["file"]["id"], 10_000_000)
    return data


def silence(seconds: float) -> bytes:
    return _wav(b"\0\0" * int(8000 * seconds))


def hiss(seconds: float) -> bytes:
    """White noise at a speaking level."""
    noise = random.Random(7)
    return _wav(b"".join(struct.pack("<h", int(noise.gauss(0, 3000))) for _ in range(int(8000 * seconds))))


def tone(seconds: float) -> bytes:
    """A 440 Hz sine."""
    return _wav(
        b"".join(
            struct.pack("<h", int(8000 * math.sin(2 * math.pi * 440 * i / 8000))) for i in range(int(8000 * seconds))
        )
    )


def _wav(frames: bytes) -> bytes:
    out = io.BytesIO()
    with wave.open(out, "wb") as file:
        file.setnchannels(1)
        file.setsampwidth(2)
        file.setframerate(8000)
        file.writeframes(frames)
    return out.getvalue()


@pytest.mark.parametrize("fmt", ["wav", "mp3", "ogg"])
def test_round_trip_espeak_to_pocketsphinx(fmt: str, validate_output) -> None:
    out = validate_output(
        "whisper_transcribe", call(app, "whisper_transcribe", audio=b64(spoken(SENTENCE, fmt)), timestamps=True)
    )
    assert word_error_rate(SENTENCE, out["text"]) <= 0.4, out["text"]
    # At least three of the four number words: after the whole integration tier (not alone, not after either half
    # of it) pocketsphinx hears the mp3's "two" as "do"; the word error rate above still holds.
    assert len({"two", "three", "four", "five"} & set(out["text"].split())) >= 3, out["text"]
    assert (out["language"], out["engine"], out["minutes_billed"]) == ("en", "pocketsphinx", 1)
    assert 1.0 < out["duration_s"] < 3.0
    assert out["segments"] and out["segments"][0]["start"] < out["segments"][-1]["end"] <= out["duration_s"] + 0.1


def test_the_local_engine_says_so_and_reports_its_confidence(validate_output) -> None:
    out = validate_output("whisper_transcribe", call(app, "whisper_transcribe", audio=b64(spoken(SENTENCE))))
    assert out["confidence"] >= NOISE_CONFIDENCE and out["minutes_billed"] == 1
    assert out["note"].startswith("local engine (pocketsphinx")


@pytest.mark.parametrize("noise", ["silence", "hiss", "tone"])
def test_a_transcript_of_noise_is_not_charged(noise: str, validate_output) -> None:
    """Issue 39: silence came back as 'in' and cost a credit. Below NOISE_CONFIDENCE nothing is charged."""
    audio = {"silence": silence(2), "hiss": hiss(2), "tone": tone(2)}[noise]
    payload = {"tool": "whisper_transcribe", "arguments": {"audio": b64(audio)}, "account_id": ACCOUNT}
    reply = app.handle({**payload, "request_id": "r1"})
    out = validate_output("whisper_transcribe", reply.structured_content)
    assert reply.waive_charge and out["minutes_billed"] == 0, out
    assert out["confidence"] < NOISE_CONFIDENCE and "not charged" in out["note"]


def test_staged_audio_and_no_timestamps(validate_output) -> None:
    staged = service_store().put(ACCOUNT, spoken("one two three"), "audio/wav")
    out = validate_output("whisper_transcribe", call(app, "whisper_transcribe", audio=staged.id))
    assert out["segments"] == [] and "three" in out["text"]


def test_duration_caps_are_checked_before_transcription() -> None:
    minute_and_a_bit = silence(61)
    out = call(app, "whisper_transcribe", audio=b64(minute_and_a_bit))
    assert (out["code"], out["minutes"], "max_minutes=2" in out["error"]) == ("invalid_arguments", 2, True)
    quiet = call(app, "whisper_transcribe", audio=b64(minute_and_a_bit), max_minutes=2)
    assert not quiet.get("is_error") and quiet["duration_s"] > 60  # accepted (and, silent, not billed)
    over = call(app, "whisper_transcribe", audio=b64(silence(30)), max_minutes=3)
    assert (over["code"], over["minutes"]) == ("invalid_arguments", 1)
    long = call(app, "whisper_transcribe", audio=b64(silence(601)), max_minutes=10)
    assert (long["code"], "at most 10" in long["error"]) == ("invalid_arguments", True)


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({"audio": b64(b"this is not audio at all")}, "audio"),
        ({"audio": "stg_" + "0" * 32}, "not_found"),
        ({"audio": b64(b"x"), "max_minutes": 11}, "max_minutes"),
        ({"audio": b64(b"x"), "language": "english"}, "language"),
    ],
)
def test_bad_input(arguments: dict[str, object], field: str) -> None:
    out = call(app, "whisper_transcribe", **arguments)
    assert out["is_error"] is True and (field in out["error"] or out["code"] == field), out


def test_pocketsphinx_is_english_only(validate_output) -> None:
    out = call(app, "whisper_transcribe", audio=b64(spoken("hallo")), language="de")
    assert (out["code"], "English only" in out["error"]) == ("invalid_arguments", True)
    status = validate_output("whisper_status", call(app, "whisper_status"))
    assert "error rates" in status["accuracy_note"] and status["missing"] == []
    assert validate_output("whisper_languages", call(app, "whisper_languages"))["languages"] == [
        {"code": "en", "name": "English (US)"}
    ]


def test_openai_compatible_endpoint(
    monkeypatch: pytest.MonkeyPatch, reload_settings: Callable[[], None], validate_output
) -> None:
    with FakeTranscription(text="Guten Morgen zusammen", language="german") as fake:
        monkeypatch.setenv("WHISPER_ENGINE", "openai")
        monkeypatch.setenv("WHISPER_BASE_URL", fake.base_url)
        monkeypatch.setenv("WHISPER_MODEL", "large-v3")
        reload_settings()
        audio = spoken("good morning", "mp3")
        out = validate_output("whisper_transcribe", call(app, "whisper_transcribe", audio=b64(audio), timestamps=True))
        assert (out["text"], out["language"], out["engine"]) == ("Guten Morgen zusammen", "de", "openai")
        assert [s["text"] for s in out["segments"]] == ["Guten", "Morgen zusammen"]
        (upload,) = fake.uploads
        assert upload.file == audio and upload.filename.endswith(".mp3")
        assert (upload.fields["model"], upload.fields["response_format"]) == ("large-v3", "verbose_json")
        assert upload.authorization is None
        fake.status = 503
        failed = call(app, "whisper_transcribe", audio=b64(audio))
        assert (failed["code"], "transcription endpoint" in failed["error"]) == ("upstream_unavailable", True)
        fake.status, fake.body = 200, b"[" * 25_000
        deep = call(app, "whisper_transcribe", audio=b64(audio))
        assert (deep["code"], "transcription endpoint" in deep["error"]) == ("upstream_unavailable", True)
    monkeypatch.setenv("WHISPER_BASE_URL", "https://api.openai.com/v1")
    reload_settings()
    missing = call(app, "whisper_transcribe", audio=b64(spoken("hi")))
    assert (missing["code"], missing["missing_setting"]) == ("provider_not_configured", "WHISPER_API_KEY_PARAMETER")


def test_amazon_transcribe_job(
    monkeypatch: pytest.MonkeyPatch, reload_settings: Callable[[], None], validate_output
) -> None:
    monkeypatch.setenv("WHISPER_ENGINE", "transcribe")
    reload_settings()
    transcript = {
        "results": {
            "transcripts": [{"transcript": "one two three four five"}],
            "audio_segments": [
                {"id": 0, "transcript": "one two three four five", "start_time": "0.1", "end_time": "2.2"}
            ],
        }
    }
    real_start = engines._transcribe().start_transcription_job

    def start(**kwargs: object) -> object:
        # moto runs the job but writes nothing: put the transcript where the job would.
        answer = real_start(**kwargs)
        body = json.dumps(transcript).encode()
        boto3.client("s3").put_object(Bucket=kwargs["OutputBucketName"], Key=kwargs["OutputKey"], Body=body)
        return answer

    monkeypatch.setattr(engines._transcribe(), "start_transcription_job", start)
    out = validate_output(
        "whisper_transcribe",
        call(app, "whisper_transcribe", audio=b64(spoken(SENTENCE)), language="en", timestamps=True),
    )
    assert (out["text"], out["engine"], out["language"]) == ("one two three four five", "transcribe", "en")
    assert out["segments"] == [{"start": 0.1, "end": 2.2, "text": "one two three four five"}]


def test_a_finished_transcribe_job_without_its_transcript_is_upstream_unavailable_not_internal(
    monkeypatch: pytest.MonkeyPatch, reload_settings: Callable[[], None]
) -> None:
    """The job completed but its output key holds nothing (moto writes none; in AWS: a lifecycle rule, a denied
    read): the S3 error used to escape as an `internal` crash."""
    monkeypatch.setenv("WHISPER_ENGINE", "transcribe")
    reload_settings()
    monkeypatch.setattr(engines.time, "sleep", lambda _s: None)
    out = call(app, "whisper_transcribe", audio=b64(spoken("hi")), language="en")
    assert (out.get("is_error"), out["code"]) == (True, "upstream_unavailable"), out
    assert "transcript could not be read (NoSuchKey)" in out["error"]


def test_base64_with_data_url_prefix(validate_output) -> None:
    # A whole sentence: one word alone depends on what the recogniser heard before (see engines.Pocketsphinx).
    data_url = "data:audio/wav;base64," + base64.b64encode(spoken(SENTENCE)).decode()
    out = validate_output("whisper_transcribe", call(app, "whisper_transcribe", audio=data_url))
    assert {"three", "four", "five"} <= set(out["text"].split()), out["text"]
