"""Binary inputs and outputs of tools: one string in, one staged file out.

Input: a tool declares a file argument with `binary_input(...)`. Its JSON
Schema is a single string, the easiest shape for an agent to fill in:

- `https://...` (or `http://`): downloaded through the platform's SSRF guard
  (`mcp_platform.web.download`: checked address connected to, redirects re-checked,
  byte cap and deadline); it needs only httpx, so no web layer is required;
- `stg_<32 hex>`: a staging id of the caller's account (from `staging_upload`
  or a tool's `file.id`);
- anything else: base64 of the file, optionally as a `data:<type>;base64,` URL.

Validation (in the router, before any charge) checks the form, decodes base64
and checks its size and sniffed media type; `BinaryRef.load(ctx)` resolves all
three forms to bytes and checks size and type again.

Output: `stage_output(data, media_type, ctx)` stores the bytes in the staging
bucket and gives the wire object (`STAGED_OBJECT_SCHEMA`) plus, for small
images, an inline MCP image block.

Examples:
    >>> class Args(BaseModel):
    ...     model_config = ConfigDict(extra="forbid")
    ...     image: binary_input("The image to inspect.", media_types=("image/*",))
    >>> def info(arguments: Args, ctx: ServiceContext) -> ToolOutput:
    ...     blob = arguments.image.load(ctx)
    ...     staged = stage_output(png_bytes, "image/png", ctx, filename="out.png")
    ...     return ToolOutput(structured={"file": staged.file}, content=staged.content)
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass, field
from fnmatch import fnmatch
from typing import TYPE_CHECKING, Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import PlainSerializer, PlainValidator, WithJsonSchema

from mcp_platform.contracts._staging import DEFAULT_TTL_S, STAGED_OBJECT_SCHEMA, STAGING_ID
from mcp_platform.protocol.errors import ErrorCode, ToolError
from mcp_platform.web.addresses import public_url

if TYPE_CHECKING:
    from mcp_platform.runtime.service import ServiceContext

__all__ = [
    "DEFAULT_MAX_BYTES",
    "INLINE_IMAGE_MAX_BYTES",
    "STAGED_OBJECT_SCHEMA",
    "BinaryRef",
    "Blob",
    "StagedOutput",
    "binary_input",
    "decode_base64",
    "sniff_media_type",
    "stage_output",
]

DEFAULT_MAX_BYTES = 10 * 1024 * 1024
INLINE_IMAGE_MAX_BYTES = 256 * 1024
"""Images up to this size also come back inline as MCP `image` content."""
_INLINE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
_DATA_URL = re.compile(r"^data:(?P<type>[\w.+-]+/[\w.+-]+)?(?:;[^,;]*)*;base64,", re.IGNORECASE)
_WHITESPACE = re.compile(r"\s+")

# Magic numbers of the formats the platform handles; a declared type is used only when none matches.
_SIGNATURES: tuple[tuple[bytes, int, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", 0, "image/png"),
    (b"\xff\xd8\xff", 0, "image/jpeg"),
    (b"GIF87a", 0, "image/gif"),
    (b"GIF89a", 0, "image/gif"),
    (b"II*\x00", 0, "image/tiff"),
    (b"MM\x00*", 0, "image/tiff"),
    (b"BM", 0, "image/bmp"),
    (b"%PDF-", 0, "application/pdf"),
    (b"PK\x03\x04", 0, "application/zip"),
    (b"ID3", 0, "audio/mpeg"),
    (b"\xff\xfb", 0, "audio/mpeg"),
    (b"\xff\xf3", 0, "audio/mpeg"),
    (b"OggS", 0, "audio/ogg"),
    (b"fLaC", 0, "audio/flac"),
    (b"\x1aE\xdf\xa3", 0, "video/webm"),
)
_RIFF = {b"WEBP": "image/webp", b"WAVE": "audio/wav"}
_HEIF_BRANDS = {b"heic": "image/heic", b"heix": "image/heic", b"mif1": "image/heif", b"avif": "image/avif"}


def sniff_media_type(data: bytes) -> str | None:
    """The media type the bytes' magic number says, or None when unknown."""
    for magic, offset, media_type in _SIGNATURES:
        if data[offset : offset + len(magic)] == magic:
            return media_type
    if data[:4] == b"RIFF" and data[8:12] in _RIFF:
        return _RIFF[data[8:12]]
    if data[4:8] == b"ftyp" and data[8:11] == b"M4A":
        return "audio/mp4"
    if data[4:8] == b"ftyp":
        return _HEIF_BRANDS.get(data[8:12])
    return None


@dataclass(frozen=True)
class Blob:
    """A resolved binary input."""

    data: bytes
    media_type: str
    filename: str | None = None


@dataclass(frozen=True)
class BinaryRef:
    """A validated binary argument; `load(ctx)` gives its bytes."""

    kind: Literal["url", "staging_id", "base64"]
    raw: str
    max_bytes: int
    media_types: tuple[str, ...]
    argument: str
    """The argument's name, for error messages."""
    inline: Blob | None = field(default=None, repr=False)
    """The decoded bytes of a base64 argument (decoded once, at validation)."""

    def load(self, ctx: ServiceContext) -> Blob:
        """Resolve to bytes and media type; `ToolError` naming the field when refused."""
        if self.inline is not None:
            return self.inline
        if self.kind == "staging_id":
            from mcp_platform.storage import staging_store  # the store (botocore) only when a file is read

            obj, data = staging_store.store_for(ctx.staging_bucket).read(ctx.account_id, self.raw, self.max_bytes)
            blob = Blob(data, sniff_media_type(data) or obj.media_type, obj.filename)
        else:
            blob = self._download(ctx)
        _check_type(blob.media_type, self.media_types, self.argument)
        return blob

    def _download(self, ctx: ServiceContext) -> Blob:
        # Imported here: the router validates binary arguments but never downloads, so its cold
        # start does not pay for the HTTP stack.
        from mcp_platform.web.http import FetchLimits, download

        limits = FetchLimits(max_bytes=self.max_bytes).within(ctx.seconds_left() - _DEADLINE_MARGIN_S)
        try:
            got = download(self.raw, limits=limits)
        except ToolError as exc:
            # The guard's messages start with "url: " or the URL itself; name the argument instead.
            message = exc.message.removeprefix("url: ")
            raise ToolError(f"{self.argument}: {message}", exc.code, **exc.extra) from None
        media_type = sniff_media_type(got.body) or got.content_type or _OCTETS
        return Blob(got.body, media_type, urlsplit(got.final_url).path.rsplit("/", 1)[-1] or None)


_OCTETS = "application/octet-stream"
_DEADLINE_MARGIN_S = 3.0
"""Seconds of the invocation kept for the tool's own work after a download."""


def binary_input(
    what: str,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    media_types: tuple[str, ...] = ("*/*",),
    argument: str = "file",
) -> Any:
    """The annotated type of a file argument (a string: URL, staging id or base64).

    `what` starts the field description; the three accepted forms, the size
    cap and the accepted types are appended. `media_types` are patterns
    (`image/*`); `argument` is the argument's name, for error messages.
    """
    accepted = ", ".join(media_types) if media_types != ("*/*",) else "any type"
    description = (
        f"{what} One string, any of: an https:// URL of the file; a staging id (stg_ + 32 hex digits, "
        f"from staging_upload or another tool's file.id); or the file itself as base64 (a data: URL "
        f"also works). At most {max_bytes // 1024} KiB; {accepted}."
    )

    def parse(value: Any) -> BinaryRef:
        if isinstance(value, BinaryRef):
            return value
        if not isinstance(value, str) or not value.strip():
            raise ValueError("expected a non-empty string: a URL, a staging id or base64")
        return _parse(value.strip(), max_bytes, media_types, argument)

    return Annotated[
        BinaryRef,
        PlainValidator(parse),
        PlainSerializer(lambda ref: ref.raw, return_type=str),
        WithJsonSchema({"type": "string", "minLength": 1, "description": description}),
    ]


def _parse(value: str, max_bytes: int, media_types: tuple[str, ...], argument: str) -> BinaryRef:
    lowered = value[:8].lower()
    if lowered.startswith(("http://", "https://")):
        if len(value) > 4096:
            raise ValueError("URL longer than 4096 characters")
        # The syntax half of the SSRF rules (IP literals, credentials) refuses before any charge.
        return BinaryRef("url", public_url(value), max_bytes, media_types, argument)
    if STAGING_ID.match(value):
        return BinaryRef("staging_id", value, max_bytes, media_types, argument)
    if value.startswith("stg_"):
        raise ValueError("looks like a staging id but is not stg_ followed by 32 lowercase hex digits")
    declared = None
    if lowered.startswith("data:"):
        match = _DATA_URL.match(value)
        if match is None:
            raise ValueError("a data: URL must be data:<type>;base64,<data>")
        declared, value = match.group("type"), value[match.end() :]
    data = decode_base64(value, max_bytes)
    blob = Blob(data, sniff_media_type(data) or (declared or _OCTETS).lower())
    try:
        _check_type(blob.media_type, media_types, argument)
    except ToolError as exc:
        raise ValueError(exc.message.removeprefix(f"{argument}: ")) from None
    return BinaryRef("base64", value, max_bytes, media_types, argument, inline=blob)


def decode_base64(value: str, max_bytes: int) -> bytes:
    """Decode standard or URL-safe base64 (whitespace and missing padding tolerated).

    Raises `ValueError` (for pydantic validators) when invalid, empty or over `max_bytes`.
    """
    compact = _WHITESPACE.sub("", value)
    if len(compact) * 3 // 4 > max_bytes + 2:
        raise ValueError(f"the decoded file would exceed {max_bytes} bytes")
    compact += "=" * (-len(compact) % 4)
    try:
        if "-" in compact or "_" in compact:
            data = base64.urlsafe_b64decode(compact)
        else:
            data = base64.b64decode(compact, validate=True)
    except (binascii.Error, ValueError):
        raise ValueError("not a URL, not a staging id and not valid base64") from None
    if not data:
        raise ValueError("the file is empty")
    if len(data) > max_bytes:
        raise ValueError(f"the decoded file is {len(data)} bytes; at most {max_bytes} accepted")
    return data


def _check_type(media_type: str, patterns: tuple[str, ...], field: str) -> None:
    if not any(fnmatch(media_type, pattern) for pattern in patterns):
        raise ToolError(
            f"{field}: the file is {media_type}; accepted: {', '.join(patterns)}", ErrorCode.INVALID_ARGUMENTS
        )


@dataclass(frozen=True)
class StagedOutput:
    """A tool's file result: `file` for structuredContent, `content` for extra MCP blocks."""

    file: dict[str, Any]
    content: list[dict[str, Any]]


def stage_output(
    data: bytes,
    media_type: str,
    ctx: ServiceContext,
    *,
    filename: str | None = None,
    ttl_s: int = DEFAULT_TTL_S,
    inline_image: bool = True,
) -> StagedOutput:
    """Store `data` for the caller; small PNG/JPEG/GIF/WebP images are also inlined."""
    from mcp_platform.storage import staging_store  # the store (botocore) only when a file is written

    store = staging_store.store_for(ctx.staging_bucket)
    obj = store.put(ctx.account_id, data, media_type, filename=filename, ttl_s=ttl_s)
    content = []
    if inline_image and media_type in _INLINE_TYPES and len(data) <= INLINE_IMAGE_MAX_BYTES:
        content.append({"type": "image", "data": base64.b64encode(data).decode("ascii"), "mimeType": media_type})
    return StagedOutput(obj.to_wire(store.presign_get(ctx.account_id, obj)), content)
