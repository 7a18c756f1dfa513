"""Is a text Hungarian? Letters only Hungarian uses (ő, ű) and its commonest words."""

from __future__ import annotations

import re

_WORD = re.compile(r"\w+")
# Frequent Hungarian function words that are rare as words in other languages.
_HU_WORDS = frozenset(
    "és hogy nem egy az vagy mert ami aki ahol mint csak már még is meg lesz volt van nincs "
    "ez azt ezt kell lehet nagyon milyen miért hogyan mikor között szerint után előtt alatt".split()
)
_HU_LETTERS = frozenset("őűŐŰ")
_HU_VOWELS = frozenset("áéíóöúüÁÉÍÓÖÚÜ")


def is_hungarian(text: str | None) -> bool:
    """True when `text` reads as Hungarian.

    Examples:
        >>> is_hungarian("Mi a helyzet a magyar gazdasággal és az inflációval?")
        True
        >>> is_hungarian("What is the state of the economy?")
        False
    """
    if not text:
        return False
    sample = text[:20_000]
    words = [w.lower() for w in _WORD.findall(sample)]
    if not words:
        return False
    if any(ch in _HU_LETTERS for ch in sample):
        return True
    function_words = sum(1 for w in words if w in _HU_WORDS)
    accented = sum(1 for ch in sample if ch in _HU_VOWELS)
    return function_words / len(words) >= 0.04 and accented / max(1, len(sample)) >= 0.01
