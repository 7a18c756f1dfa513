"""Opaque, stateless list cursors: the position is encoded in the cursor itself."""

from __future__ import annotations

import base64
import binascii
from typing import TYPE_CHECKING

from mcp_platform.protocol.jsonrpc import INVALID_PARAMS, JsonRpcError

if TYPE_CHECKING:
    from collections.abc import Sequence


def page[T](items: Sequence[T], cursor: object, size: int) -> tuple[Sequence[T], str | None]:
    """One page of `items` from `cursor` (None: the start) and the cursor of the next page, if any."""
    start = 0 if cursor is None else _decode(cursor)
    if start > len(items):
        raise JsonRpcError(INVALID_PARAMS, "invalid cursor")
    end = start + size
    return items[start:end], (_encode(end) if end < len(items) else None)


def _encode(offset: int) -> str:
    return base64.urlsafe_b64encode(f"o:{offset}".encode()).decode().rstrip("=")


def _decode(cursor: object) -> int:
    if isinstance(cursor, str):
        try:
            raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
            if raw.startswith("o:") and raw[2:].isdigit():
                return int(raw[2:])
        except (binascii.Error, UnicodeDecodeError, ValueError):
            pass
    raise JsonRpcError(INVALID_PARAMS, "invalid cursor")
