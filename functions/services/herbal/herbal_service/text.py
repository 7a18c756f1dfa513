"""Name folding shared by the importer (keys it writes) and the service (keys it looks up)."""

from __future__ import annotations

import re
import unicodedata

_NON_WORD = re.compile(r"[^0-9a-z?]+")


def fold(text: str) -> str:
    """Lower case, accents and punctuation dropped, single spaces: "St. John's-wort" → "st john s wort".

    A trailing "?" survives: Dr. Duke marks a doubtful activity so ("Estrogenic?"), and a doubtful
    activity is not the same as a certain one.
    """
    decomposed = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return _NON_WORD.sub(" ", decomposed).strip()


def fts_query(text: str) -> str | None:
    """An FTS5 query matching every word of `text` as a prefix; None when no word is left."""
    words = fold(text).replace("?", " ").split()
    return " AND ".join(f'"{w}"*' for w in words) or None
