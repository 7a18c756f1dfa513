"""tts_*: espeak-ng for real (the local engine), Polly through botocore's Stubber with real MP3 bytes."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import pytest
from botocore.response import StreamingBody
from botocore.stub import Stubber

from mcp_platform.contracts.tts import credits_for
from staging_support import service_store, staging_bucket  # noqa: F401 - fixture
from tts_service import audio, engines
from tts_service.app import app
from voice_support import ACCOUNT, call

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator


@pytest.fixture(autouse=True)
def _staging(staging_bucket: str) -> None:
    pass


@pytest.fixture
def espeak_engine(monkeypatch: pytest.MonkeyPatch, reload_settings: Callable[[], None]) -> None:
    monkeypatch.setenv("TTS_ENGINE", "espeak")
    reload_settings()


@pytest.mark.usefixtures("espeak_engine")
@pytest.mark.parametrize(("fmt", "media_type"), [("wav", "audio/wav"), ("mp3", "audio/mpeg"), ("ogg", "audio/ogg")])
def test_espeak_synthesizes_every_format(fmt: str, media_type: str, validate_output) -> None:
    out = validate_output(
        "tts_synthesize", call(app, "tts_synthesize", text="Hello world. This is a test.", format=fmt)
    )
    assert (out["media_type"], out["engine"], out["voice"], out["characters"], out["parts"]) == (
        media_type,
        "espeak-ng",
        "gmw/en-US",
        28,
        1,
    )
    _, data = service_store().read(ACCOUNT, out["file"]["id"], 10_000_000)
    assert 1.2 < out["duration_s"] == audio.duration_s(data) < 4.0


@pytest.mark.usefixtures("espeak_engine")
def test_rate_ssml_languages_and_voices(validate_output) -> None:
    slow = call(app, "tts_synthesize", text="The quick brown fox jumps over the lazy dog.", format="wav", rate=60)
    fast = call(app, "tts_synthesize", text="The quick brown fox jumps over the lazy dog.", format="wav", rate=180)
    assert slow["duration_s"] > 2 * fast["duration_s"]
    paused = call(app, "tts_synthesize", ssml='<speak>Hello <break time="1500ms"/> world</speak>', format="wav")
    plain = call(app, "tts_synthesize", ssml="<speak>Hello world</speak>", format="wav")
    assert paused["duration_s"] > plain["duration_s"] + 1.2
    assert paused["characters"] == len("Hello  world")
    german = validate_output("tts_synthesize", call(app, "tts_synthesize", text="Guten Tag", language="de-DE"))
    assert (german["voice"], german["language"]) == ("gmw/de", "de")
    voices = validate_output("tts_voices", call(app, "tts_voices", language="en"))
    assert voices["count"] > 5 and all(v["language"].startswith("en") for v in voices["voices"])
    languages = validate_output("tts_languages", call(app, "tts_languages"))
    assert languages["count"] > 50


@pytest.mark.usefixtures("espeak_engine")
@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({"ssml": "<speak>unclosed"}, "ssml"),
        ({"ssml": "<p>not speak</p>"}, "ssml"),
        ({"text": "a", "ssml": "<speak>b</speak>"}, "exactly one"),
        ({"text": "x", "format": "flac"}, "format"),
        ({"text": "x", "rate": 400}, "rate"),
        ({"text": "x", "voice": "nobody"}, "voice"),
        ({"text": "x", "language": "xx-YY"}, "language"),
    ],
)
def test_bad_input_is_refused(arguments: dict[str, object], field: str) -> None:
    out = call(app, "tts_synthesize", **arguments)
    assert (out["is_error"], out["code"]) == (True, "invalid_arguments")
    assert field in out["error"]


def test_estimate_is_what_synthesize_charges(registry, validate_output) -> None:
    spec = registry.get("tts_synthesize")
    for text in ["x", "y" * 1000, "z" * 1001, "w" * 99_999]:
        estimate = validate_output("tts_estimate", call(app, "tts_estimate", text=text))
        assert (
            estimate["credits"]
            == spec.price_for(spec.validate({"text": text}), providers_configured=False)
            == credits_for(len(text))
        )
    ssml = "<speak>" + "a" * 1000 + '<break time="1s"/></speak>'
    assert (
        call(app, "tts_estimate", ssml=ssml)["credits"]
        == spec.price_for(spec.validate({"ssml": ssml}), providers_configured=False)
        == 1
    )


# ---------------------------------------------------------------- Polly


def _mp3(seconds_of_tone: float) -> bytes:
    rate = 22_050
    import numpy as np

    samples = (np.sin(np.arange(int(rate * seconds_of_tone)) * 440 * 2 * np.pi / rate) * 8000).astype(np.int16)
    return audio.encode(samples.tobytes(), rate, "mp3")


@pytest.fixture
def polly(monkeypatch: pytest.MonkeyPatch, reload_settings: Callable[[], None]) -> Iterator[Stubber]:
    monkeypatch.setenv("TTS_ENGINE", "polly")
    reload_settings()
    engines._polly.cache_clear()
    engines._engine.cache_clear()  # a fresh Polly engine: its voice list comes from this stubber
    with Stubber(engines._polly()) as stubber:
        stubber.add_response(
            "describe_voices",
            {
                "Voices": [
                    {
                        "Id": "Joanna",
                        "Name": "Joanna",
                        "LanguageCode": "en-US",
                        "Gender": "Female",
                        "SupportedEngines": ["neural", "standard"],
                    },
                    {
                        "Id": "Ivy",
                        "Name": "Ivy",
                        "LanguageCode": "en-US",
                        "Gender": "Female",
                        "SupportedEngines": ["standard"],
                    },
                    {
                        "Id": "Hans",
                        "Name": "Hans",
                        "LanguageCode": "de-DE",
                        "Gender": "Male",
                        "SupportedEngines": ["standard"],
                    },
                ]
            },
            {"IncludeAdditionalLanguageCodes": True},
        )
        yield stubber
    engines._engine.cache_clear()


def _speech(stubber: Stubber, data: bytes, **expected: object) -> None:
    stubber.add_response(
        "synthesize_speech",
        {
            "AudioStream": StreamingBody(io.BytesIO(data), len(data)),
            "ContentType": "audio/mpeg",
            "RequestCharacters": 10,
        },
        expected or None,
    )


def test_polly_splits_long_text_at_sentences_and_joins_the_audio(polly: Stubber, validate_output) -> None:
    sentence = "This sentence is exactly fifty characters long ok. "
    text = (sentence * 120).strip()  # 6,119 characters: three requests under Polly's 3,000
    for _ in range(3):
        _speech(polly, _mp3(1.0))
    out = validate_output("tts_synthesize", call(app, "tts_synthesize", text=text))
    assert (out["engine"], out["voice"], out["parts"], out["characters"]) == ("polly-neural", "Joanna", 3, len(text))
    assert 2.9 < out["duration_s"] < 3.3
    pieces = engines.split_sentences(text)
    assert [len(p) <= engines.POLLY_MAX_TEXT for p in pieces] == [True] * 3 and " ".join(pieces) == text


def test_polly_voice_choice_rate_and_errors(polly: Stubber) -> None:
    _speech(
        polly,
        _mp3(0.5),
        Text='<speak><prosody rate="150%">Fish &amp; chips</prosody></speak>',
        TextType="ssml",
        VoiceId="Hans",
        Engine="standard",
        OutputFormat="mp3",
    )
    out = call(app, "tts_synthesize", text="Fish & chips", voice="hans", rate=150)
    assert (out["engine"], out["voice"], out["language"]) == ("polly-standard", "Hans", "de-DE")
    polly.add_client_error("synthesize_speech", "ServiceFailureException", http_status_code=500)
    failed = call(app, "tts_synthesize", text="Hello")
    assert (failed["code"], "Polly" in failed["error"]) == ("upstream_unavailable", True)
    missing = call(app, "tts_synthesize", text="Hello", voice="Nobody")
    assert (missing["code"], "voice" in missing["error"]) == ("invalid_arguments", True)
