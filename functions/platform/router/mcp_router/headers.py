"""MCP header values may arrive base64-wrapped (`=?base64?…?=`) when they are not plain ASCII."""

from __future__ import annotations

import base64
import binascii
import re

_SENTINEL = re.compile(r"^=\?base64\?(?P<payload>.*)\?=$")


def decode_header_value(value: str | None) -> str | None:
    """The header's text; None for an absent or corrupt base64 value (so it never matches by accident)."""
    if value is None:
        return None
    match = _SENTINEL.fullmatch(value)
    if match is None:
        return value
    payload = match.group("payload")
    try:
        decoded = base64.b64decode(payload, validate=True)
        if base64.b64encode(decoded).decode("ascii") != payload:
            return None  # non-canonical encodings are rejected, as the SDKs do
        return decoded.decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None
