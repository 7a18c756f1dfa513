"""Bytes to text: the charset a page declares, else UTF-8, else Windows-1252."""

from __future__ import annotations

import codecs
import re

_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.IGNORECASE)
_HEADER_CHARSET = re.compile(r"charset\s*=\s*[\"']?([A-Za-z0-9_.:-]+)", re.IGNORECASE)


def declared_charset(body: bytes, content_type: str | None) -> str | None:
    """The charset named by the Content-Type header, else by a `<meta>` in the first 4 KB, if Python knows it."""
    candidates = []
    if content_type and (m := _HEADER_CHARSET.search(content_type)):
        candidates.append(m.group(1))
    if meta := _META_CHARSET.search(body[:4096]):
        candidates.append(meta.group(1).decode("ascii"))
    for name in candidates:
        try:
            return codecs.lookup(name).name
        except LookupError:
            continue
    return None


def decode_body(body: bytes, content_type: str | None) -> str:
    """Decode a response body; never raises (undecodable bytes become U+FFFD).

    Examples:
        >>> decode_body("é".encode(), "text/html; charset=utf-8")
        'é'
    """
    if body.startswith(codecs.BOM_UTF8):
        return body[len(codecs.BOM_UTF8) :].decode("utf-8", errors="replace")
    charset = declared_charset(body, content_type)
    if charset:
        try:
            return body.decode(charset)
        except UnicodeDecodeError:
            pass
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        return body.decode("cp1252", errors="replace")
