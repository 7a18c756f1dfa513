"""staging: short-lived private files, the platform's channel for binary data."""

from __future__ import annotations

import re
from typing import Any

from pydantic import Field, field_validator

from mcp_platform.catalogue.registry import Annotations, ToolInput, ToolSpec
from mcp_platform.contracts._common import status_output_schema, status_tool
from mcp_platform.contracts._staging import (
    DEFAULT_TTL_S,
    MAX_TTL_S,
    MIN_TTL_S,
    STAGED_OBJECT_SCHEMA,
    STAGING_ID,
)
from mcp_platform.protocol.binary import decode_base64

UPLOAD_MAX_BYTES = 4 * 1024 * 1024
"""Inline uploads: 4 MiB decoded keeps the base64 under Lambda's 6 MB invoke payload."""
PRESIGNED_MAX_BYTES = 100 * 1024 * 1024
_MEDIA_TYPE = r"^[A-Za-z0-9][\w.+-]*/[A-Za-z0-9][\w.+-]*$"
_FILENAME = re.compile(r"^[^/\\\x00-\x1f]{1,255}$")

_Ttl = Field(
    default=DEFAULT_TTL_S,
    ge=MIN_TTL_S,
    le=MAX_TTL_S,
    description=f"Seconds the file is kept, {MIN_TTL_S} to {MAX_TTL_S} (one day).",
)
_Filename = Field(
    default=None,
    max_length=255,
    description="Name to remember with the file (no slashes), e.g. report.pdf.",
)


def _check_filename(value: str | None) -> str | None:
    if value is not None and not _FILENAME.match(value):
        raise ValueError("a file name has 1 to 255 characters and no slash, backslash or control character")
    return value


class UploadInput(ToolInput):
    content_base64: str = Field(
        min_length=1,
        description=f"The file as base64 (standard or URL-safe), at most {UPLOAD_MAX_BYTES // 1024} KiB decoded. "
        "For larger files use staging_upload_url.",
    )
    filename: str | None = _Filename
    media_type: str | None = Field(
        default=None,
        pattern=_MEDIA_TYPE,
        description="Media type such as image/png; detected from the content when omitted.",
    )
    ttl_s: int = _Ttl

    @field_validator("content_base64")
    @classmethod
    def _decodes(cls, value: str) -> str:
        decode_base64(value, UPLOAD_MAX_BYTES)
        return value

    _filename = field_validator("filename")(_check_filename)


class UploadUrlInput(ToolInput):
    size: int = Field(
        ge=1,
        le=PRESIGNED_MAX_BYTES,
        description="Exact size of the file in bytes; the upload must send exactly this many bytes.",
    )
    media_type: str = Field(pattern=_MEDIA_TYPE, description="Media type of the file, e.g. application/pdf.")
    filename: str | None = _Filename
    ttl_s: int = _Ttl

    _filename = field_validator("filename")(_check_filename)


class IdInput(ToolInput):
    id: str = Field(
        pattern=STAGING_ID.pattern,
        description="Staging id, as returned by staging_upload or a tool's file.id (stg_ + 32 hex digits).",
    )


_UPLOAD_URL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "id": {"type": "string", "pattern": STAGING_ID.pattern},
        "upload_url": {"type": "string", "description": "Presigned URL; send the file with HTTP PUT."},
        "method": {"const": "PUT"},
        "headers": {
            "type": "object",
            "additionalProperties": {"type": "string"},
            "description": "Send exactly these headers with the PUT.",
        },
        "size": {"type": "integer"},
        "media_type": {"type": "string"},
        "expires_at": {"type": "string", "format": "date-time"},
    },
    "required": ["id", "upload_url", "method", "headers", "size", "media_type", "expires_at"],
    "additionalProperties": False,
}

_STATUS_SCHEMA = status_output_schema(
    {
        "backend": {"type": "string"},
        "objects": {"type": "integer", "description": "Files this account currently holds (up to 1000)."},
        "limits": {
            "type": "object",
            "properties": {
                "upload_max_bytes": {"type": "integer"},
                "upload_url_max_bytes": {"type": "integer"},
                "min_ttl_s": {"type": "integer"},
                "max_ttl_s": {"type": "integer"},
            },
            "required": ["upload_max_bytes", "upload_url_max_bytes", "min_ttl_s", "max_ttl_s"],
            "additionalProperties": False,
        },
        "version": {"type": "string"},
        "error": {"type": "string"},
    },
    required=["backend", "limits", "version"],
)

_PRIVATE = "Files are private to your account and deleted when their ttl ends."

_NEW_FILE = Annotations(read_only=False, idempotent=False)
"""Each call stores a new file: not read-only, not idempotent."""

TOOLS = [
    ToolSpec(
        name="staging_upload",
        service="staging",
        title="Upload a file",
        description="Stores a small file (base64, up to 4 MiB) and returns its staging id and a download URL. "
        f"Pass the id as the file input of other tools (img_*, pdf_*, ...). {_PRIVATE} 1 credit.",
        input_model=UploadInput,
        output_schema=STAGED_OBJECT_SCHEMA,
        annotations=_NEW_FILE,
        price=1,
    ),
    ToolSpec(
        name="staging_upload_url",
        service="staging",
        title="Get an upload URL",
        description="For files too large for staging_upload (up to 100 MiB): returns a staging id and a "
        "presigned URL; PUT the file's exact bytes there with the returned headers, then use the id. "
        f"{_PRIVATE} 1 credit.",
        input_model=UploadUrlInput,
        output_schema=_UPLOAD_URL_SCHEMA,
        annotations=_NEW_FILE,
        price=1,
    ),
    ToolSpec(
        name="staging_get",
        service="staging",
        title="Get a staged file",
        description="Metadata of a staged file (size, media type, expiry) and a fresh download URL. 1 credit.",
        input_model=IdInput,
        output_schema=STAGED_OBJECT_SCHEMA,
        price=1,
    ),
    ToolSpec(
        name="staging_delete",
        service="staging",
        title="Delete a staged file",
        description="Deletes a staged file of your account before its ttl ends. 1 credit.",
        input_model=IdInput,
        output_schema={
            "type": "object",
            "properties": {"id": {"type": "string"}, "deleted": {"const": True}},
            "required": ["id", "deleted"],
            "additionalProperties": False,
        },
        annotations=Annotations(read_only=False, destructive=True, idempotent=False),
        price=1,
    ),
    status_tool(
        "staging",
        title="Staging status",
        description="Health of the file store, its limits and how many files your account holds. Free.",
        output_schema=_STATUS_SCHEMA,
    ),
]
