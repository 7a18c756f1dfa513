"""Parsing of binary arguments: the three forms, size and type checks (no I/O)."""

from __future__ import annotations

import base64

import pytest
from pydantic import BaseModel, ConfigDict, ValidationError

from mcp_platform.protocol.binary import binary_input, sniff_media_type
from mcp_platform.protocol.schema import input_schema

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32


class Args(BaseModel):
    model_config = ConfigDict(extra="forbid")

    image: binary_input("The image.", max_bytes=64, media_types=("image/*",), argument="image")


def test_schema_is_one_described_string() -> None:
    prop = input_schema(Args)["properties"]["image"]
    assert prop["type"] == "string"
    assert "staging id" in prop["description"]
    assert "base64" in prop["description"]
    assert "image/*" in prop["description"]


def test_url_and_staging_id_forms() -> None:
    assert Args(image="https://example.com/a.png").image.kind == "url"
    ref = Args(image="stg_" + "ab" * 16).image
    assert ref.kind == "staging_id"
    assert ref.raw == "stg_" + "ab" * 16


def test_base64_decoded_and_sniffed() -> None:
    ref = Args(image=base64.b64encode(PNG).decode()).image
    assert ref.kind == "base64"
    assert ref.inline is not None
    assert ref.inline.data == PNG
    assert ref.inline.media_type == "image/png"


def test_data_url_declared_type_used_when_magic_unknown() -> None:
    class AnyFile(BaseModel):
        model_config = ConfigDict(extra="forbid")
        file: binary_input("Any file.")

    ref = AnyFile(file="data:text/plain;base64," + base64.b64encode(b"hello").decode()).file
    assert ref.inline is not None
    assert ref.inline.media_type == "text/plain"
    assert ref.inline.data == b"hello"


def test_round_trips_through_model_dump() -> None:
    raw = base64.b64encode(PNG).decode()
    assert Args(image=raw).model_dump() == {"image": raw}


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("", "non-empty string"),
        ("stg_123", "stg_ followed by 32"),
        ("not base64 at all!", "not valid base64"),
        (base64.b64encode(b"GIF89a" + b"\x00" * 100).decode(), "exceed 64 bytes"),
        (base64.b64encode(b"%PDF-1.4 abc").decode(), "application/pdf; accepted: image/*"),
        ("data:image/png,abc", "data:<type>;base64"),
    ],
)
def test_bad_values_name_the_field(value: str, message: str) -> None:
    with pytest.raises(ValidationError) as info:
        Args(image=value)
    text = str(info.value)
    assert "image" in text
    assert message in text


@pytest.mark.parametrize(
    ("head", "media_type"),
    [
        (b"\xff\xd8\xff\xe0", "image/jpeg"),
        (b"RIFF\x00\x00\x00\x00WEBPVP8 ", "image/webp"),
        (b"\x00\x00\x00\x18ftypheic", "image/heic"),
        (b"II*\x00", "image/tiff"),
        (b"hello", None),
    ],
)
def test_sniff(head: bytes, media_type: str | None) -> None:
    assert sniff_media_type(head) == media_type
