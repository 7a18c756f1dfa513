"""Name normalisation shared by the importer (keys it stores) and the service (keys it looks up)."""

from __future__ import annotations

import re
import unicodedata

_SPACES = re.compile(r"\s+")
_NON_WORD = re.compile(r"[^\w]+", re.UNICODE)


def fold(text: str) -> str:
    """Lower case, accents stripped, whitespace collapsed: `  São  Paulo ` → `sao paulo`."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return _SPACES.sub(" ", stripped).strip()


def exact_key(text: str) -> str:
    """Case-insensitive but accent-sensitive key (an exact name match)."""
    return _SPACES.sub(" ", unicodedata.normalize("NFC", text).casefold()).strip()


def words(text: str) -> list[str]:
    """Folded words of a query, for FTS (punctuation dropped, so no FTS syntax gets through)."""
    return [w for w in _NON_WORD.sub(" ", fold(text)).split() if w]
