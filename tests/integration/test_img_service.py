"""img_* tools: facts, EXIF/GPS, every output format, metadata stripping, limits (moto staging)."""

from __future__ import annotations

import base64
import io
from typing import Any

import boto3
import pytest
from PIL import ExifTags, Image, TiffImagePlugin

from img_service.app import app
from mcp_platform.contracts.img import MAX_PIXELS
from staging_support import BUCKET, staging_bucket  # noqa: F401 - fixture

pytestmark = pytest.mark.usefixtures("staging_bucket")


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    reply = app.handle({"tool": tool, "arguments": arguments, "account_id": "acct_i", "request_id": "r1"})
    return {"structured": reply.structured_content, "content": reply.content}


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def encode(image: Image.Image, fmt: str, **options: Any) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, fmt, **options)
    return buffer.getvalue()


def photo_with_gps() -> bytes:
    """A JPEG whose EXIF has a camera model and a GPS position (47.4979 N, 19.0402 E, Budapest)."""
    exif = Image.Exif()
    exif[ExifTags.Base.Model] = "TestCam 1"
    exif[ExifTags.Base.Orientation] = 1
    rational = TiffImagePlugin.IFDRational
    exif[ExifTags.IFD.GPSInfo] = {
        ExifTags.GPS.GPSLatitudeRef: "N",
        ExifTags.GPS.GPSLatitude: (rational(47), rational(29), rational(52.44)),
        ExifTags.GPS.GPSLongitudeRef: "E",
        ExifTags.GPS.GPSLongitude: (rational(19), rational(2), rational(24.72)),
    }
    image = Image.new("RGB", (120, 80), (200, 30, 30))
    return encode(image, "JPEG", exif=exif.tobytes(), icc_profile=b"\0" * 128)


def downloaded(file: dict[str, Any]) -> bytes:
    key = f"acct_i/{file['id']}"
    return boto3.client("s3").get_object(Bucket=BUCKET, Key=key)["Body"].read()


def test_info_reads_exif_and_flags_gps(validate_output) -> None:
    out = validate_output("img_info", call("img_info", image=b64(photo_with_gps()))["structured"])
    assert (out["format"], out["media_type"], out["width"], out["height"], out["mode"]) == (
        "JPEG",
        "image/jpeg",
        120,
        80,
        "RGB",
    )
    assert out["exif"]["Model"] == "TestCam 1"
    assert out["gps"]["present"] is True
    assert out["gps"]["latitude"] == pytest.approx(47.4979, abs=1e-4)
    assert out["gps"]["longitude"] == pytest.approx(19.0402, abs=1e-4)


def test_info_reads_the_exif_and_interop_sub_ifds(validate_output) -> None:
    exif = Image.Exif()
    exif[ExifTags.IFD.Exif] = {
        ExifTags.Base.ISOSpeedRatings: 200,
        ExifTags.IFD.Interop: {ExifTags.Interop.InteropIndex: "R98"},
    }
    with_interop = encode(Image.new("RGB", (4, 4)), "JPEG", exif=exif.tobytes())
    out = validate_output("img_info", call("img_info", image=b64(with_interop))["structured"])
    assert out["exif"] == {"ISOSpeedRatings": 200, "InteropIndex": "R98"}
    del exif[ExifTags.IFD.Exif][ExifTags.IFD.Interop]
    without_interop = encode(Image.new("RGB", (4, 4)), "JPEG", exif=exif.tobytes())
    assert call("img_info", image=b64(without_interop))["structured"]["exif"] == {"ISOSpeedRatings": 200}


def test_info_without_exif(validate_output) -> None:
    png = encode(Image.new("RGBA", (3, 2), (0, 0, 0, 0)), "PNG")
    out = validate_output("img_info", call("img_info", image=b64(png))["structured"])
    assert out["exif"] == {}
    assert out["gps"] == {"present": False}
    assert out["has_alpha"] is True
    assert out["frames"] == 1


def test_info_counts_frames(validate_output) -> None:
    frames = [Image.new("RGB", (8, 8), color) for color in ("red", "green", "blue")]
    gif = encode(frames[0], "GIF", save_all=True, append_images=frames[1:])
    assert validate_output("img_info", call("img_info", image=b64(gif))["structured"])["frames"] == 3


@pytest.mark.parametrize("fmt", ["png", "jpeg", "webp", "gif", "tiff", "heic"])
def test_transform_every_format_round_trips_through_info(fmt: str, validate_output) -> None:
    source = encode(Image.new("RGBA", (100, 50), (10, 200, 10, 128)), "PNG")
    result = call("img_transform", image=b64(source), format=fmt, resize={"width": 40})
    out = validate_output("img_transform", result["structured"])
    assert (out["width"], out["height"]) == (40, 20)
    data = downloaded(out["file"])
    assert out["file"]["size"] == len(data)
    info = validate_output("img_info", call("img_info", image=out["file"]["id"])["structured"])
    assert (info["width"], info["height"], info["media_type"]) == (40, 20, out["media_type"])
    inline = [block for block in result["content"] if block["type"] == "image"]
    if out["media_type"] in ("image/png", "image/jpeg", "image/gif", "image/webp"):
        assert inline == [{"type": "image", "data": b64(data), "mimeType": out["media_type"]}]
    else:
        assert inline == []


def test_crop_rotate_resize_order(validate_output) -> None:
    source = encode(Image.new("RGB", (200, 100), "blue"), "PNG")
    out = call(
        "img_transform",
        image=b64(source),
        crop={"left": 10, "top": 10, "width": 60, "height": 30},
        rotate=90,
        resize={"width": 15, "height": 15, "fit": "contain"},
    )["structured"]
    validate_output("img_transform", out)
    # 60x30 crop → 30x60 after rotation → fits 15x15 as 8x15 (proportions kept)
    assert (out["width"], out["height"]) == (8, 15)


def test_cover_fills_the_box(validate_output) -> None:
    source = encode(Image.new("RGB", (200, 100), "blue"), "PNG")
    out = call("img_transform", image=b64(source), resize={"width": 50, "height": 50, "fit": "cover"})
    assert (validate_output("img_transform", out["structured"])["width"], out["structured"]["height"]) == (50, 50)


def _reopened(out: dict[str, Any]) -> Image.Image:
    return Image.open(io.BytesIO(downloaded(out["structured"]["file"])))


def test_strip_metadata_really_strips() -> None:
    kept = _reopened(call("img_transform", image=b64(photo_with_gps()), format="jpeg", quality=90))
    assert kept.getexif().get_ifd(ExifTags.IFD.GPSInfo), "without strip the GPS data must survive"
    assert "icc_profile" in kept.info
    stripped = _reopened(call("img_transform", image=b64(photo_with_gps()), strip_metadata=True))
    assert len(stripped.getexif()) == 0
    assert not stripped.getexif().get_ifd(ExifTags.IFD.GPSInfo)
    assert not {"exif", "icc_profile", "xmp"} & set(stripped.info)
    assert b"TestCam" not in downloaded(
        call("img_transform", image=b64(photo_with_gps()), strip_metadata=True)["structured"]["file"]
    )


def test_status(validate_output) -> None:
    out = validate_output("img_status", call("img_status")["structured"])
    assert out["heic"] is True
    assert "heic" in out["output_formats"]
    assert out["limits"]["max_pixels"] == MAX_PIXELS


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({"image": "aGVsbG8="}, "image"),  # "hello" is not an image
        ({"image": b64(b"\x89PNG\r\n\x1a\n"), "format": "bmp"}, "format"),
        ({"image": b64(b"\x89PNG\r\n\x1a\n")}, "arguments"),  # nothing to do
        ({"image": b64(b"\x89PNG\r\n\x1a\n"), "resize": {}}, "resize"),
        ({"image": b64(b"\x89PNG\r\n\x1a\n"), "quality": 0, "format": "jpeg"}, "quality"),
        ({"image": b64(b"\x89PNG\r\n\x1a\n"), "crop": {"left": -1, "top": 0, "width": 1, "height": 1}}, "crop.left"),
    ],
)
def test_transform_bad_input_names_the_field(arguments: dict[str, Any], field: str) -> None:
    out = call("img_transform", **arguments)["structured"]
    assert out["code"] == "invalid_arguments"
    assert f"{field}" in out["error"]


def test_crop_outside_the_image() -> None:
    source = encode(Image.new("RGB", (20, 20)), "PNG")
    out = call("img_transform", image=b64(source), crop={"left": 10, "top": 0, "width": 20, "height": 5})["structured"]
    assert out["code"] == "invalid_arguments"
    assert out["error"].startswith("crop: the box ends at (30, 5)")


def test_corrupt_image_is_a_clear_error() -> None:
    truncated = encode(Image.new("RGB", (64, 64), "red"), "PNG")[:60]
    for tool, extra in (("img_info", {}), ("img_transform", {"format": "jpeg"})):
        out = call(tool, image=b64(truncated), **extra)["structured"]
        assert out["code"] == "invalid_arguments", out
        assert out["error"].startswith("image:")


def test_decompression_bomb_refused() -> None:
    # 8000x8000 = 64 Mpx of a single colour compresses to a few kB.
    bomb = encode(Image.new("L", (8000, 8000)), "PNG")
    for tool in ("img_info", "img_transform"):
        out = (
            call(tool, image=b64(bomb), format="png")["structured"]
            if tool == "img_transform"
            else call(tool, image=b64(bomb))["structured"]
        )
        assert out["code"] == "invalid_arguments"
        assert "pixel" in out["error"]


def test_missing_staging_id() -> None:
    out = call("img_info", image="stg_" + "0" * 32)["structured"]
    assert out["code"] == "not_found"
