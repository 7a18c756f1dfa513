"""The normalised view: folding, invisible characters, confusables, leetspeak, spacing (see the package docstring)."""

from __future__ import annotations

import re
import string
import unicodedata
from functools import lru_cache

import numpy as np

from promptguard_service.normalize.triggers import TRIGGER_SET
from promptguard_service.normalize.view import View

_INVISIBLE = frozenset(
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d"
    "\u202e\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069\u206a\u206b\u206c\u206d\u206e\u206f"
    "\u3164\ufeff\uffa0"
)
"""Zero-width, joiner, soft hyphen and bidi embedding/override/isolate controls."""

_CONFUSABLES = str.maketrans(
    # Cyrillic
    "аеорсухкмтвнзіјѕԁӏɡ"
    "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧαβεικνορτυχ"  # Greek
    "ıɑɩοℓ",
    "aeopcyxkmtbh3ijsdlgabezhikmnoptyxabeiknoptuxiaiol",
)
_LEET = str.maketrans("0134578@$|!", "oieastbasii")
_LEET_CHARS = frozenset("0134578@$|!")
_ORDINAL = re.compile(r"^\d+(?:st|nd|rd|th|s)\b")
_TOKEN_PIPE = re.compile(r"(?<=<)\||\|(?=>)")
"""The bars of a chat-template token (`<|im_start|>`, `<|end tool output|>`): no leetspeak "i", or
role_marker would read `<iim_starti>`."""
_KEPT = "\ue000"
"""A private-use character standing in for a `_TOKEN_PIPE` while the word's leetspeak is read."""
_ADDRESS = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+\.\w|(?:https?://|www\.)\S")
"""An e-mail address or a web address: its digits and `@` are no leetspeak, and rules read them as written.
An address is tried only where a run of its characters begins (any match inside a run has one there too):
tried everywhere, one 20,000-character word of letters and digits took 1.9 s."""
# Single characters separated by one separator, the same throughout, at least 3 of them: "i g n o r e",
# "\在\存\在", "i+g+n+o+r+e a+l+l" (two runs: a space between runs of "+" is a word break).
_SEPARATOR = r"[ \t\\/|*._+,~:=-]"
_SPACED = re.compile(rf"(?<![^\s\\/|*._+,~:=-])\w({_SEPARATOR})(?:\w\1)+\w(?![^\s\\/|*._+,~:=-])")
_SPACED_END = re.compile(rf"{_SEPARATOR}\w{_SEPARATOR}\w(?![^\s\\/|*._+,~:=-])")
"""The last two characters of every `_SPACED` run, with the separator before each: found fast (a search that
opens on a separator skips ahead), it rules out most texts before `_SPACED` tries every word (0.15 ms)."""
_WS_RUN = re.compile(r"[^\S\n]{2,}")
# "Zalgo" text: three or more combining marks stacked on one character (Vietnamese stacks two at most),
# or marks on a space or an ASCII punctuation sign.
_MARKS = r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]"
_MARK_STACK = re.compile(rf"{_MARKS}{{3,}}|(?<=[\s!-/:-@\[-`{{-~]){_MARKS}+")
_MARK = re.compile(_MARKS)
"""One combining mark: most texts have none, and looking for one skips ahead as `_MARK_STACK`, whose second
branch opens with a lookbehind, cannot (0.15 -> 0.015 ms on 2,000 characters)."""


def _variation_selector(ch: str) -> bool:
    return 0xFE00 <= ord(ch) <= 0xFE0F or 0xE0100 <= ord(ch) <= 0xE01EF


_LETTER_SYMBOL = re.compile(
    r"(?:LATIN LETTER SMALL CAPITAL|NEGATIVE (?:CIRCLED|SQUARED) LATIN CAPITAL LETTER"
    r"|REGIONAL INDICATOR SYMBOL LETTER|PARENTHESIZED LATIN (?:SMALL|CAPITAL) LETTER) ([A-Z])"
)
_LETTER_SYMBOL_BLOCKS = ((0x0250, 0x02AF), (0x1D00, 0x1D7F), (0x2460, 0x24FF), (0xA720, 0xA7FF), (0x1F100, 0x1F1FF))
"""IPA, phonetic extensions, enclosed alphanumerics, Latin extended-D and their supplement: where the symbols
`_LETTER_SYMBOL` names are."""


def _letter_symbols() -> dict[str, str]:
    found: dict[str, str] = {}
    for first, last in _LETTER_SYMBOL_BLOCKS:
        for code in range(first, last + 1):
            if named := _LETTER_SYMBOL.fullmatch(unicodedata.name(chr(code), "")):
                found[chr(code)] = named.group(1).lower()
    return found


_LETTER_SYMBOLS = _letter_symbols()
"""Latin letters drawn as symbols that NFKC leaves as they are (small capitals "ɪɢɴᴏʀᴇ", negative circled and
squared letters "🅸🅶🅽", regional indicators "🇮🇬🇳") or spells with parentheses ("⒤⒢⒩" -> "(i)(g)(n)"), each
read as its letter. A flag (two regional indicators) reads as its country code."""


@lru_cache(maxsize=16384)
def _fold_char(ch: str) -> str:
    if ch in _INVISIBLE or unicodedata.category(ch) == "Cf" or _variation_selector(ch):
        return ""
    return _LETTER_SYMBOLS.get(ch) or unicodedata.normalize("NFKC", ch).casefold()


_NON_ASCII_RUN = re.compile(r"([^\x00-\x7f]+)")
_ASCII_LOWER = {ord(ch): ch.lower() for ch in string.ascii_uppercase}
_MANY_PARTS = 400
"""More ASCII and non-ASCII runs than this (Russian or Greek prose), and one translation of the whole text
is cheaper than one per run (about 1 µs each)."""


def _fold(text: str) -> tuple[str, list[int]]:
    """NFKC + casefold + invisible removal per character (a translation table), so offsets survive.

    Where every character of the text folds as `str.lower` lowers it, one `lower` does it all (0.22 -> 0.13 ms
    on 2,000 characters of accented prose). Otherwise only the non-ASCII runs go through the table; the ASCII
    between them is lowered as a whole (a translation of the whole text looked every character up: 0.6 ms on
    2,000 characters of news with curly quotes)."""
    if text.isascii():
        return text.lower(), list(range(len(text) + 1))
    table = {ord(ch): _fold_char(ch) for ch in set(text) if not ch.isascii()}
    if "\u03a3" not in text and all(value == chr(code).lower() for code, value in table.items()):
        # Every character folds as it lowers (accents, curly quotes, most scripts): `lower` is one pass.
        # Not with a capital sigma, which `lower` writes final (U+03C2) at the end of a word, folding never.
        folded = text.lower()
    elif len(parts := _NON_ASCII_RUN.split(text)) > _MANY_PARTS:  # ASCII, non-ASCII, ASCII, …
        folded = text.translate({**_ASCII_LOWER, **table})  # words of another script between spaces
    else:
        folded = "".join(part.translate(table) if k % 2 else part.lower() for k, part in enumerate(parts))
    resized = [code for code, value in table.items() if len(value) != 1]
    if not resized:
        return folded, list(range(len(text) + 1))
    codes = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    lengths = np.ones(len(text), dtype=np.int64)
    for code in resized:
        lengths[codes == code] = len(table[code])
    return folded, [*np.repeat(np.arange(len(text)), lengths).tolist(), len(text)]


# A word where a Latin letter touches a digit/symbol or a non-ASCII letter: leetspeak or homoglyphs.
_OTHER, _LATIN, _MIXING, _SPACE = range(4)
_CLASS_LIMIT = 0x3001
"""Above U+3000 (the ideographic space) no character is white space, and every one is non-ASCII."""


def _char_class(code: int) -> int:
    if chr(code).isspace():  # what `\s` matches in a str pattern
        return _SPACE
    if 97 <= code <= 122:
        return _LATIN
    return _MIXING if code > 0x7F or chr(code) in "0123456789@$|!" else _OTHER


_CHAR_CLASS = np.array([_char_class(code) for code in range(_CLASS_LIMIT + 1)], dtype=np.uint8)
"""Per code point up to `_CLASS_LIMIT` (the classes of every higher one): a lower-case Latin letter, a
character that mixed with one makes leetspeak or a homoglyph word, white space, or anything else."""

_ASCII_MIXING = re.compile(r"[0-9@$|!]")
"""The ASCII characters of class `_MIXING`."""


def _mixed_words(text: str) -> list[tuple[int, int]]:
    """The spans of the white-space-delimited words of the (folded) `text` where a Latin letter touches a
    digit, one of `@$|!` or a non-ASCII character. Found on a class per character, with numpy: the regular
    expressions this replaces tried four pairs at every character (0.3 ms on 2,000 characters of accented
    prose, or of English with "2nd" or "mp3" in it)."""
    if text.isascii() and not _ASCII_MIXING.search(text):  # most short prompts: no numpy at all
        return []
    codes = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    classes = _CHAR_CLASS.take(np.minimum(codes, _CLASS_LIMIT))
    latin, mixing = classes == _LATIN, classes == _MIXING
    pairs = np.flatnonzero((latin[:-1] & mixing[1:]) | (mixing[:-1] & latin[1:]))
    if not len(pairs):
        return []
    spaces = np.flatnonzero(classes == _SPACE)
    before = np.searchsorted(spaces, pairs)  # the spaces before each pair (neither of its characters is one)
    starts = np.concatenate([[-1], spaces])[before] + 1
    ends = np.concatenate([spaces, [len(text)]])[before]
    first = np.concatenate([[True], starts[1:] != starts[:-1]])  # one span per word, however many pairs
    return list(zip(starts[first].tolist(), ends[first].tolist(), strict=True))


def _unleet(word: str) -> str:
    """`word` with its leetspeak digits and symbols read as letters, unless it is an address, a code or a number.
    A word that reads as a trigger word is read so however many digits it has ("1n57ruc710n5")."""
    if _ADDRESS.search(word):
        return word
    core = word.rstrip("!.,;:?")
    if "|" in core:
        read_core = _TOKEN_PIPE.sub(_KEPT, core).translate(_LEET).replace(_KEPT, "|")
    else:
        read_core = core.translate(_LEET)
    read = read_core + word[len(core) :]
    if read_core in TRIGGER_SET:
        return read
    letters = sum(c.isalpha() for c in word)
    leet = sum(c in _LEET_CHARS for c in word)
    if sum(c.isdigit() for c in word) > letters:
        return word  # a code, an account number or a hash: not a word with digits for letters
    mostly_letters = letters >= 2 and letters + leet >= 0.7 * len(word) and not word[0].isdigit()
    leading_digit = letters >= 2 and word[0] in "0134578" and not _ORDINAL.match(word)
    return read if mostly_letters or leading_digit else word


def _fix_words(text: str) -> str:
    """Confusable and leetspeak folding inside words; keeps the length so offsets hold."""
    words = _mixed_words(text)
    if not words:
        return text
    chars: list[str] | None = None
    for start, end in words:
        word = text[start:end]
        fixed = word.translate(_CONFUSABLES)  # one character for another: the length holds
        if not _LEET_CHARS.isdisjoint(fixed):  # most words (accented prose) have none: no counting
            fixed = _unleet(fixed)
        if fixed != word:
            chars = chars if chars is not None else list(text)
            chars[start:end] = fixed
    return "".join(chars) if chars is not None else text


def _drop_spans(text: str, origin: list[int], drops: list[tuple[int, int]]) -> tuple[str, list[int]]:
    """`text` without the (sorted, disjoint) `drops` spans, and the origins of what is left."""
    parts: list[str] = []
    kept: list[int] = []
    previous = 0
    for start, end in drops:
        parts.append(text[previous:start])
        kept.extend(origin[previous:start])
        previous = end
    parts.append(text[previous:])
    kept.extend(origin[previous:])
    return "".join(parts), kept


def _drop_mark_stacks(text: str, origin: list[int]) -> tuple[str, list[int]]:
    if not _MARK.search(text):
        return text, origin
    drops = [match.span() for match in _MARK_STACK.finditer(text)]
    return _drop_spans(text, origin, drops) if drops else (text, origin)


def _join_spaced(text: str, origin: list[int]) -> tuple[str, list[int]]:
    if not _SPACED_END.search(text):
        return text, origin
    drops = [(i, i + 1) for match in _SPACED.finditer(text) for i in range(match.start() + 1, match.end(), 2)]
    return _drop_spans(text, origin, drops) if drops else (text, origin)


def _collapse_ws(text: str, origin: list[int]) -> tuple[str, list[int]]:
    drops = [(match.start() + 1, match.end()) for match in _WS_RUN.finditer(text)]
    return _drop_spans(text, origin, drops) if drops else (text, origin)


def normalize(text: str) -> View:
    """The normalised view of `text` (see the package docstring)."""
    folded, origin = _fold(text)
    folded, origin = _drop_mark_stacks(folded, origin)
    folded = _fix_words(folded)
    folded, origin = _join_spaced(folded, origin)
    folded, origin = _collapse_ws(folded, origin)
    return View(folded, origin)
