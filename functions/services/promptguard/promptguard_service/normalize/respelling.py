"""Misspelt trigger words spelt right (`ignroe all prevoius iunstructions`)."""

from __future__ import annotations

import gzip
import re
from functools import cache, lru_cache
from pathlib import Path

from promptguard_service.normalize.triggers import TRIGGER_WORDS, letter_runs
from promptguard_service.normalize.view import View

_ONE_OFF: dict[str, str] = {
    **{word[:i] + word[i + 1 :]: word for word in reversed(TRIGGER_WORDS) for i in range(len(word))},
    **{word: word for word in TRIGGER_WORDS},
}
"""Each trigger word, and each string one deletion away from it: a word's misspelling shares one with it."""
_ONE_OFF_OPENINGS = frozenset(key[:3] for key in _ONE_OFF)
"""The first three letters of every `_ONE_OFF` key: a cheap test that no deletion from a token is one."""
_LONGEST = max(map(len, TRIGGER_WORDS)) + 1
_WORD = re.compile(rf"(?<![a-z])[a-z]{{5,{_LONGEST}}}(?![a-z])")
"""A whole run of letters that could be one edit from a trigger word; a longer one is skipped, not
tried: its deletions cost the square of its length (100,000 letters took 2.6 s)."""


@cache
def _english_words() -> frozenset[str]:
    """English words (wordninja's 126k list; `preload` reads it): real words stay as written."""
    import wordninja

    with gzip.open(Path(wordninja.__file__).parent / "wordninja" / "wordninja_words.txt.gz", "rt") as listed:
        return frozenset(listed.read().split())


def preload() -> None:
    """Read the English word lists now (importing wordninja builds its model): about 0.25 s that the first
    text with a near-miss spelling or a run of chopped words would otherwise pay inside its check."""
    _english_words()


@lru_cache(maxsize=1 << 16)
def _near_trigger(token: str) -> str | None:
    """The trigger word `token` (five letters or more, as `_WORD` finds them) misspells (one letter left out,
    added, changed or two swapped), if any. Cached: prose repeats its words (a 2,000-character page looks
    up 163 tokens; its respelling took 0.7 ms uncached, 0.2 ms cached)."""
    if token in _ONE_OFF:
        return _ONE_OFF[token] if _ONE_OFF[token] != token else None
    # A deletion from the token opens with its letters 2-4 (the first deleted), 1+3-4, 1-2+4 or 1-3.
    if not {token[1:4], token[0] + token[2:4], token[:2] + token[3], token[:3]} & _ONE_OFF_OPENINGS:
        return None
    shorter = (token[:i] + token[i + 1 :] for i in range(len(token)))
    return next((_ONE_OFF[variant] for variant in shorter if variant in _ONE_OFF), None)


def _respelt(token: str) -> str | None:
    """The trigger word `token` misspells, unless `token` is an English word itself."""
    word = _near_trigger(token)
    return word if word is not None and token not in _english_words() else None


def respelled_view(view: View) -> View | None:
    """`view` with trigger words misspelt to dodge word matching ("ignroe", "iunstructions", "overrride")
    spelt right, or None if it has none. A token is respelt only when it is one edit from a trigger word
    and no English word: "systems" and "prompted" stay. `_WORD`'s tokens are the runs of 5 to `_LONGEST`
    letters: the text's runs tell at once whether any is to be respelt (most texts: none)."""
    if not any(_respelt(run) for run in letter_runs(view.text) if 5 <= len(run) <= _LONGEST):
        return None
    fixes = [
        (match.start(), match.end(), word)
        for match in _WORD.finditer(view.text)
        if (word := _respelt(match.group())) is not None
    ]
    parts: list[str] = []
    origin: list[int] = []
    previous = 0
    for start, end, word in fixes:
        parts += [view.text[previous:start], word]
        stretch = (end - start - 1) / max(len(word) - 1, 1)  # first letter to first, last to last
        origin += view.origin[previous:start] + [view.origin[start + round(k * stretch)] for k in range(len(word))]
        previous = end
    parts.append(view.text[previous:])
    origin += view.origin[previous:]
    return View("".join(parts), origin, "respelled")
