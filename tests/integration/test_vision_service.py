"""vision_*: RapidOCR reads text the test renders (real engine); Rekognition through botocore's Stubber with
answers in its documented shape; describe through a loopback OpenAI-compatible model (tests/support)."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import pytest
from botocore.stub import ANY, Stubber
from PIL import Image

from mcp_platform.runtime.settings import SettingsError
from staging_support import staging_bucket  # noqa: F401 - fixture
from tests.support.fake_backends import FakeChatModel
from vision_service import backends
from vision_service.app import app
from vision_service.settings import Settings
from voice_support import b64, call, rendered_text

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator


@pytest.fixture(autouse=True)
def _local(staging_bucket: str, monkeypatch: pytest.MonkeyPatch, reload_settings: Callable[[], None]) -> None:
    monkeypatch.setenv("VISION_OCR_ENGINE", "rapidocr")
    monkeypatch.setenv("VISION_LABELS_ENGINE", "none")
    monkeypatch.setenv("LLM_PROVIDER", "gemini")  # the template's defaults: no model configured
    for name in ("LLM_MODEL", "LLM_BASE_URL", "GEMINI_API_KEY_PARAMETER", "LLM_API_KEY_PARAMETER"):
        monkeypatch.setenv(name, "")
    reload_settings()


def test_rapidocr_reads_rendered_text(validate_output) -> None:
    image = rendered_text(["Invoice 2026-11 total 42.50 EUR", "Thank you for your order"])
    out = validate_output("vision_ocr", call(app, "vision_ocr", image=b64(image)))
    assert out["engine"] == "rapidocr"
    assert out["text"] == "Invoice 2026-11 total 42.50 EUR\nThank you for your order"
    assert [w["text"] for w in out["words"][:5]] == ["Invoice", "2026-11", "total", "42.50", "EUR"]
    first = out["lines"][0]
    assert (
        first["confidence"] > 90 and 0 < first["box"]["left"] < 0.1 and first["box"]["top"] < first["box"]["top"] + 0.5
    )
    assert out["lines"][1]["box"]["top"] > first["box"]["top"]


def test_ocr_of_a_converted_format_and_an_empty_image(validate_output) -> None:
    png = Image.open(io.BytesIO(rendered_text(["WebP works too"])))
    webp = io.BytesIO()
    png.save(webp, "WEBP", lossless=True)
    assert (
        validate_output("vision_ocr", call(app, "vision_ocr", image=b64(webp.getvalue())))["text"] == "WebP works too"
    )
    blank = io.BytesIO()
    Image.new("RGB", (200, 100), "white").save(blank, "PNG")
    assert validate_output("vision_ocr", call(app, "vision_ocr", image=b64(blank.getvalue())))["lines"] == []


def test_not_configured_backends_are_clear_errors(validate_output) -> None:
    image = b64(rendered_text(["x"]))
    labels = call(app, "vision_labels", image=image)
    assert (labels["code"], labels["missing_setting"]) == ("provider_not_configured", "VISION_LABELS_ENGINE")
    described = call(app, "vision_describe", image=image)
    assert (described["code"], "GEMINI_API_KEY_PARAMETER" in described["error"]) == ("provider_not_configured", True)
    status = validate_output("vision_status", call(app, "vision_status"))
    assert status["missing"] == ["GEMINI_API_KEY_PARAMETER", "VISION_LABELS_ENGINE"]


def test_bad_images_are_refused() -> None:
    for image, needle in [(b64(b"not an image"), "image"), (b64(b"GIF89a" + b"\0" * 20), "image")]:
        out = call(app, "vision_ocr", image=image)
        assert out["is_error"] is True and needle in out["error"]


def test_describe_through_an_openai_compatible_model(monkeypatch: pytest.MonkeyPatch, validate_output) -> None:
    with FakeChatModel() as model:
        monkeypatch.setenv("LLM_PROVIDER", "openai")
        monkeypatch.setenv("LLM_BASE_URL", model.base_url)
        monkeypatch.setenv("LLM_MODEL", "llava")
        out = validate_output(
            "vision_describe", call(app, "vision_describe", image=b64(rendered_text(["hi"])), detail="detailed")
        )
        assert out["description"] == "The text has no prose. I see 1 image(s)."
        assert out["model"] == "openai/llava" and out["input_tokens"] > 85
        (request,) = model.requests
        parts = request.body["messages"][-1]["content"]
        assert parts[0]["text"].startswith("In one thorough paragraph: describe this image.")
        assert parts[1]["image_url"]["url"].startswith("data:image/png;base64,")
        model.status = 500
        failed = call(app, "vision_describe", image=b64(rendered_text(["hi"])))
        assert failed["code"] == "upstream_unavailable"


@pytest.fixture
def rekognition(monkeypatch: pytest.MonkeyPatch, reload_settings: Callable[[], None]) -> Iterator[Stubber]:
    monkeypatch.setenv("VISION_OCR_ENGINE", "rekognition")
    monkeypatch.setenv("VISION_LABELS_ENGINE", "rekognition")
    reload_settings()
    backends.rekognition.cache_clear()
    with Stubber(backends.rekognition()) as stubber:
        yield stubber
        stubber.assert_no_pending_responses()


def test_rekognition_labels_and_text(rekognition: Stubber, validate_output) -> None:
    box = {"Width": 0.5, "Height": 0.25, "Left": 0.1, "Top": 0.2}
    rekognition.add_response(
        "detect_labels",
        {
            "Labels": [
                {
                    "Name": "Dog",
                    "Confidence": 98.1234,
                    "Instances": [{"BoundingBox": box, "Confidence": 97.0}],
                    "Parents": [{"Name": "Animal"}, {"Name": "Pet"}],
                },
                {"Name": "Grass", "Confidence": 80.5, "Instances": [], "Parents": [{"Name": "Plant"}]},
            ]
        },
        {"Image": {"Bytes": ANY}, "MaxLabels": 5, "MinConfidence": 70.0},
    )
    labels = validate_output(
        "vision_labels", call(app, "vision_labels", image=b64(rendered_text(["x"])), max_labels=5, min_confidence=70)
    )
    assert labels["labels"][0] == {
        "name": "Dog",
        "confidence": 98.12,
        "parents": ["Animal", "Pet"],
        "boxes": [{"left": 0.1, "top": 0.2, "width": 0.5, "height": 0.25}],
    }
    geometry = {"BoundingBox": box, "Polygon": [{"X": 0.1, "Y": 0.2}]}
    rekognition.add_response(
        "detect_text",
        {
            "TextDetections": [
                {"DetectedText": "STOP HERE", "Type": "LINE", "Id": 0, "Confidence": 99.5, "Geometry": geometry},
                {
                    "DetectedText": "STOP",
                    "Type": "WORD",
                    "Id": 1,
                    "ParentId": 0,
                    "Confidence": 99.6,
                    "Geometry": geometry,
                },
                {
                    "DetectedText": "HERE",
                    "Type": "WORD",
                    "Id": 2,
                    "ParentId": 0,
                    "Confidence": 99.4,
                    "Geometry": geometry,
                },
            ]
        },
    )
    text = validate_output("vision_ocr", call(app, "vision_ocr", image=b64(rendered_text(["x"]))))
    assert (text["engine"], text["text"], [w["text"] for w in text["words"]]) == (
        "rekognition",
        "STOP HERE",
        ["STOP", "HERE"],
    )
    rekognition.add_client_error("detect_text", "ThrottlingException", http_status_code=400)
    throttled = call(app, "vision_ocr", image=b64(rendered_text(["x"])))
    assert (throttled["code"], "Rekognition" in throttled["error"]) == ("upstream_unavailable", True)
    rekognition.add_client_error("detect_labels", "ImageTooLargeException", http_status_code=400)
    refused = call(app, "vision_labels", image=b64(rendered_text(["x"])))
    assert refused["code"] == "invalid_arguments"


def test_an_unknown_engine_stops_the_cold_start_naming_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VISION_OCR_ENGINE", "tesseract")
    with pytest.raises(SettingsError, match="VISION_OCR_ENGINE"):
        Settings.from_env()
    monkeypatch.setenv("VISION_OCR_ENGINE", "rapidocr")
    monkeypatch.setenv("VISION_LABELS_ENGINE", "off")
    with pytest.raises(SettingsError, match="VISION_LABELS_ENGINE"):
        Settings.from_env()
