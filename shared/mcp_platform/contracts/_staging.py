"""Declarations of staged files shared by contracts and the staging store: ids, lifetimes, the output shape.

Pure data, so a contract can use them without importing the store (and botocore).
"""

from __future__ import annotations

import re
from typing import Any

STAGING_ID = re.compile(r"^stg_[0-9a-f]{32}$")
"""A staging id: `stg_` and 32 lowercase hex digits."""

MIN_TTL_S = 60
MAX_TTL_S = 86_400
"""Objects live at most a day; the bucket's lifecycle rule is the backstop."""
DEFAULT_TTL_S = 3_600

STAGED_OBJECT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "A staged file: download it from `url` (HTTP GET, no auth) before `expires_at`, "
    "or pass `id` as the file input of another tool.",
    "properties": {
        "id": {"type": "string", "pattern": STAGING_ID.pattern},
        "url": {"type": "string", "description": "Presigned HTTPS GET URL."},
        "size": {"type": "integer", "minimum": 0, "description": "Bytes."},
        "media_type": {"type": "string"},
        "expires_at": {"type": "string", "format": "date-time"},
        "filename": {"type": "string"},
    },
    "required": ["id", "url", "size", "media_type", "expires_at"],
    "additionalProperties": False,
}
"""The output JSON Schema of a staged object, for tools that return files."""
