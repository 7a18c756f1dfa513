"""Accents put on English words dropped (`ígnóré àll prévíóús`)."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from promptguard_service.normalize.triggers import TRIGGER_SET, letter_runs
from promptguard_service.normalize.view import View

_ACCENTS = "\u00c0-\u024f\u1e00-\u1eff\u0300-\u036f"
"""Latin letters beyond ASCII (Latin-1, extended A and B, extended additional) and the combining marks."""
_ACCENTED = re.compile(f"[{_ACCENTS}]")
_ACCENTED_WORD = re.compile(f"(?<![a-z{_ACCENTS}])[a-z]*+(?:[{_ACCENTS}][a-z]*+)+")
"""A whole run of Latin letters (in a case-folded view) with an accent in it, found in one pass: only such a run
changes when its accents are dropped."""


@lru_cache(maxsize=4096)
def _unaccented(ch: str) -> str:
    """The ASCII letter an accented Latin letter is written on; nothing for a combining mark; else `ch`."""
    if "\u0300" <= ch <= "\u036f":
        return ""
    base = unicodedata.normalize("NFD", ch)[0]
    return base if base.isascii() and base.isalpha() else ch


def deaccented_view(view: View) -> View | None:
    """`view` with the accents on its Latin letters dropped ("ígnóré àll prévíóús" -> "ignore all previous"), or
    None unless that spells at least two trigger words the view does not already hold. French or Vietnamese
    prose keeps its accents: dropping them makes no English trigger words ("révélez", "systèmes")."""
    if not _ACCENTED.search(view.text):  # one class: a search that skips ahead (English with curly quotes)
        return None
    words = " ".join(set(_ACCENTED_WORD.findall(view.text)))
    unaccented = words.translate({ord(ch): _unaccented(ch) for ch in set(_ACCENTED.findall(words))})
    if len(TRIGGER_SET.intersection(letter_runs(unaccented))) < 2:
        return None  # a trigger word the accents hid is one of these words (most texts: 0.12 -> 0.02 ms)
    table = {ord(ch): _unaccented(ch) for ch in set(_ACCENTED.findall(view.text))}
    text = view.text.translate(table)
    if len(TRIGGER_SET.intersection(letter_runs(text)) - letter_runs(view.text)) < 2:
        return None
    marks = {chr(code) for code, value in table.items() if not value}
    origin = [at for ch, at in zip(view.text, view.origin, strict=False) if ch not in marks] + [view.origin[-1]]
    return View(text, origin, "deaccented")
