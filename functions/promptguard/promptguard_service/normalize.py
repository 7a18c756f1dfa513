"""Layer 1: normalisation that defeats cheap evasion, with offsets back into the original text.

`normalize(text)` returns a `View`: the folded text the rules and the model read, and for every
character of it the offset of the original character it came from, so a span found in the view
is a span of the caller's text. Steps, each undoing one evasion:

- NFKC (full-width and mathematical letters, ligatures), then case folding; letters drawn as symbols NFKC
  keeps (small capitals, negative squared letters, regional indicators) read as letters;
- zero-width, bidi control and variation-selector characters dropped, and "Zalgo" stacks of
  combining marks;
- confusables: Cyrillic / Greek / other look-alike letters inside a word that also holds Latin
  letters folded to Latin (a Russian word stays Russian);
- leetspeak: digits and symbols inside a word that is mostly letters (`1gn0r3` -> `ignore`);
- spacing: runs of single characters split by one separator, the same throughout (`i g n o r e`,
  `\\在\\存`, `i+g+n+o+r+e a+l+l`), joined;
- whitespace runs collapsed to one space (newlines kept: lines matter to the window scoring).

`decoded_views(text)` finds encoded segments and returns their decoded text as further views; each decoded
character maps to the whole encoded segment it came from. Encodings: base64, base32, base85 (and Ascii85),
hex, URL encoding, character escapes (HTML's `&#73;` and `&#x49;`, `\\u0049`, `\\x49`, `\\111`), 8-bit binary,
decimal character codes, Morse code, Braille, the NATO spelling alphabet, ROT47, text written upside down,
bytes hidden in variation selectors, ASCII hidden in invisible bits or in invisible Unicode tag characters,
UTF-8 read as Windows-1252 ("mojibake": Cyrillic look-alikes, their bytes read as Windows-1252, are "Ð¾" for
"o"); letter substitutions (rot13 and the other Caesar shifts, Atbash, text written backwards), kept only
where the result reads as more English than the original; and words chopped into short pieces (`ig no re pre
vio us`), joined and split again into words.

`respelled_view(view)` spells misspelt trigger words right (`ignroe all prevoius iunstructions`), each
respelt letter mapped to the misspelt word; `deaccented_view(view)` drops the accents put on English words
(`ígnóré àll prévíóús`); `views(text)` is every view the detector reads.
"""

from __future__ import annotations

import base64
import binascii
import gzip
import re
import string
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote

import numpy as np

from promptguard_service.openings import with_opening

if TYPE_CHECKING:
    from collections.abc import Callable

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


@dataclass(frozen=True)
class View:
    """A text the detector reads, and where each of its characters came from in the caller's text."""

    text: str
    origin: list[int]
    """`origin[i]` is the offset in the original text of `text[i]`; `origin[len(text)]` is its end."""
    name: str = "text"
    """`text` for the normalised text, else the decoding that produced it (`base64`, `hex`, ...)."""
    segment: tuple[int, int] | None = None
    """For a decoded view: the encoded segment of the original text, which every span maps to."""

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original-text span of `text[start:end]`."""
        if self.segment is not None:
            return self.segment
        if start >= len(self.text):
            return self.origin[-1], self.origin[-1]
        first = self.origin[start]
        last = self.origin[max(start, end - 1)]
        return first, max(last + 1, first + 1) if end > start else first


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
    if read_core in _TRIGGER_SET:
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
    """The normalised view of `text` (see the module docstring)."""
    folded, origin = _fold(text)
    folded, origin = _drop_mark_stacks(folded, origin)
    folded = _fix_words(folded)
    folded, origin = _join_spaced(folded, origin)
    folded, origin = _collapse_ws(folded, origin)
    return View(folded, origin)


# ---------------------------------------------------------------- decoded views

_TAGS = re.compile("[\U000e0020-\U000e007e]{4,}")
# Four or more pieces of one to four letters: words chopped to dodge word matching.
# Possessive: a piece that stops at a letter, not a space, is no piece with fewer letters either.
_CHOPPED = with_opening(r"(?<![\w'])(?:[A-Za-z]{1,4}+ ){3,}[A-Za-z]{1,4}+(?![\w'])")
_SHORT_WORDS = frozenset(
    "a an the and or but if of to in on at by for with from up out as is are was were be am do does did have has "
    "had it its he she we you i me my our your his her him they them this that what who how why when not no yes "
    "so can will may all any one two new get set go see use way day just like more most some than then also into "
    "over only very well good make each much many such here now off too own same few let via per etc de la le el "
    "en y o e un une des les los las du da di il et es".split()
)
"""Common short words (a few Romance ones included): runs made mostly of these are prose, not chopped words."""
_LOWER, _UPPER = string.ascii_lowercase.encode(), string.ascii_uppercase.encode()
_SHIFTS = [bytes.maketrans(_LOWER + _UPPER, _LOWER[k:] + _LOWER[:k] + _UPPER[k:] + _UPPER[:k]) for k in range(26)]
"""Caesar shifts: `_SHIFTS[k]` moves each letter k places on."""
_ATBASH = bytes.maketrans(_LOWER + _UPPER, _LOWER[::-1] + _UPPER[::-1])
_B64 = re.compile(r"(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{16,}={0,2}(?![A-Za-z0-9+/=_])")
"""A run of base64 letters and its padding; a "-" may follow the padding (`<!--SGVsbG8=-->`)."""
_HEX = with_opening(r"(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}[ :]?){8,}(?![0-9A-Fa-f])")
_URLENC = re.compile(r"(?:%[0-9A-Fa-f]{2}|[A-Za-z0-9._~+-]){0,40}(?:%[0-9A-Fa-f]{2}[A-Za-z0-9._~+-]{0,12}){3,}")
_PERCENT_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")
"""One %XX; `_URLENC` needs three, and is costly to try on every text with a per cent sign in it."""
_B32 = with_opening(r"(?<![A-Z2-7])[A-Z2-7]{16,}={0,6}(?![A-Z2-7=])")
_SELECTORS = re.compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef]{4,}")
_BINARY = with_opening(r"(?<![01])(?:[01]{8}[ ,]?){4,}(?![01])")
# Morse: at least six letter codes of dots and dashes, one space between letters, " / " or three spaces
# between words.
_MORSE = with_opening(r"(?<![\w.-])[.-]{1,6}(?:(?: | / |   )[.-]{1,6}){5,}(?![\w.-])")
_MORSE_CODE = dict(
    zip(
        (
            ".- -... -.-. -.. . ..-. --. .... .. .--- -.- .-.. -- -. --- .--. --.- .-. ... - ..- ...- .-- -..- -.-- "
            "--.. ----- .---- ..--- ...-- ....- ..... -.... --... ---.. ----. .-.-.- --..-- ..--.. -.-.-- -..-. "
            "---... .----."
        ).split(),
        "abcdefghijklmnopqrstuvwxyz0123456789.,?!/:'",
        strict=True,
    )
)
"""International Morse code (ITU-R M.1677-1): letters, digits and common punctuation."""
_NATO_WORDS = {
    word.encode(): word[0]
    for word in (
        "alfa alpha bravo charlie delta echo foxtrot golf hotel india juliett juliet kilo lima mike november oscar "
        "papa quebec romeo sierra tango uniform victor whiskey whisky xray yankee zulu"
    ).split()
}
"""The NATO spelling alphabet (with the common variant spellings): each code word stands for its first letter."""
_NATO_WORD = "(?ai:" + "|".join(sorted((word.decode() for word in _NATO_WORDS), key=len, reverse=True)) + ")"
"""A code word in any case, ASCII only: under Unicode case folding "ſierra" and "KİLO" would match, and are
no keys of `_NATO_WORDS`."""
_NATO = re.compile(rf"(?<![\w-]){_NATO_WORD}(?:[ ,/|-]+{_NATO_WORD}){{5,}}(?![\w-])")
"""Six or more code words in a row, between spaces, commas or slashes."""
_NATO_BREAK = re.compile(r" */ *| *\| *|  +")
_BRAILLE_LETTERS = dict(zip("⠁⠃⠉⠙⠑⠋⠛⠓⠊⠚⠅⠇⠍⠝⠕⠏⠟⠗⠎⠞⠥⠧⠺⠭⠽⠵⠲⠂⠦⠖⠄⠤⠒⠆⠌", "abcdefghijklmnopqrstuvwxyz.,?!'-:;/", strict=True))
"""Uncontracted (grade 1) English Braille: letters and punctuation."""
_BRAILLE_DIGITS = dict(zip("⠁⠃⠉⠙⠑⠋⠛⠓⠊⠚", "1234567890", strict=True))
"""Letters a to j after the number sign (⠼) are the digits."""
_BRAILLE = re.compile("[\u2800-\u28ff]+(?:[ \n][\u2800-\u28ff]+)*")
_TURNED = "ɐɔǝɟƃɥᴉɾʞʅɯɹʇʌʍʎ"
"""The letters of text written upside down that are no plain letter ("ɐ" a, "ǝ" e, "ɹ" r). Not its marks ("˙",
"¿", "¡"): Spanish writes the last two, and every Spanish text would be scanned for runs (1 ms on 2,000
characters)."""
_UPSIDE_DOWN = str.maketrans("ɐqɔpǝɟƃɥᴉɾʞʅlɯuodbɹsʇnʌʍxʎz˙¿¡", "abcdefghijkllmnopqrstuvwxyz.?!")
"""Upside-down letters read back: turned letters, and the plain letters that turn into another (q b, d p, n u)."""
_UPSIDE_DOWN_RUN = re.compile(f"[{_TURNED}qpdbnuolsxz ,'.˙¿¡]+")
_ROT47 = bytes.maketrans(bytes(range(33, 127)), bytes(range(80, 127)) + bytes(range(33, 80)))
"""ROT47: each printable ASCII character but the space moved 47 places on (its own inverse)."""
_ROT47_MARKS = "@?:="
"""What ROT47 makes of "o", "n", "i" and "l": in English text written in ROT47 about a fifth of the characters."""
_PRINTABLE_RUN = re.compile(r"[!-~]+(?: [!-~]+){3,}")
_B85 = re.compile(r"(?<![!-~])[!-~]{20,}")
_A85_LEADS = frozenset(chr(code) for code in range(33, 33 + 41))
_B85_LEADS = frozenset((string.digits + string.ascii_uppercase + string.ascii_lowercase)[:41])
"""The digits a group of five opens with when its four bytes are ASCII (below 2**31 = 41 * 85**4): a text
whose every fifth character is one is worth decoding (a Python-level decoder: 0.02 ms per address tried)."""
_DECIMAL = with_opening(r"(?<![0-9A-Za-z_.])(?:[0-9]{2,3}(?:, ?| |;)){7,}[0-9]{2,3}(?![0-9A-Za-z_.])")
"""Character codes written as decimal numbers ("73 103 110 111 114 101"): eight or more, see `_decode_decimal`.
`[0-9]`, not `\\d`, so that `with_opening` can list what a match opens with (0.22 -> 0.06 ms on 2,000
characters of news); each number a whole word, as `_untried`'s tokens read it."""
_ESCAPE = re.compile(
    r"&#[xX]([0-9a-fA-F]{1,6});|&#([0-9]{1,7});|\\[uU]([0-9a-fA-F]{4})|\\[xX]([0-9a-fA-F]{2})|\\([0-7]{3})"
)
"""One character written as an escape: an HTML numeric entity (hex or decimal), a `\\u` or `\\x` escape of
JSON, C or Python source, or an octal `\\ooo`."""
_ESCAPES = with_opening(rf"(?:(?:{_ESCAPE.pattern})\s?){{8,}}")
"""Eight or more escapes in a row: a word or more written so that no rule reads it (`&#73;&#103;&#110;`)."""
_SNEAKY_BITS = re.compile("[\u2062\u2064\u200b]{24,}")
"""ASCII written in invisible bits: U+2062 for 0, U+2064 for 1, each character its bits without leading zeros, a
zero-width space for a space ("Sneaky Bits")."""
# Mojibake: a line holding a lead byte of a multi-byte UTF-8 character (Â-ô) followed by what a
# continuation byte (0x80-0xBF) reads as in Windows-1252.
_MOJIBAKE = re.compile(  # anchored at line starts: unanchored, each position rescans its line (quadratic)
    "^.*[\u00c2-\u00f4][\u00a0-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc"
    "\u2013\u2014\u2018-\u201a\u201c-\u201e\u2020-\u2022\u2026\u2030\u2039\u203a\u20ac\u2122].*$",
    re.MULTILINE,
)
_LATIN_RUN = re.compile(r"[A-Za-z][A-Za-z ,.'!?:;-]{30,}")
_COMMON = frozenset(
    b"the and you your to of is are all with for this that ignore instruction instructions prompt system".split()
)
"""Common English words, counted in ASCII bytes: the substitutions below are byte translations (fast)."""
_WORD_BYTES = frozenset((string.ascii_letters + string.digits + "_").encode())
_GAPS_TO_SPACES = bytes.maketrans(bytes(b for b in range(256) if b not in _WORD_BYTES), b" " * (256 - len(_WORD_BYTES)))
"""Every byte but a word byte (`\\w` in a bytes pattern: ASCII letters, digits, `_`) read as a space."""
_MAX_VIEWS = 16
_READ_BUDGET = {"chopped_words": 8_000, "nato": 2_000}
"""Characters per text a costly decoder reads. wordninja's split grows with the run: 100,000 characters
of short-word runs ("- send send send …" lines) took 2.7 s; capped, 0.2 s. A NATO run without word breaks
is split by wordninja too, at about 70 µs a letter: 2,000 characters of code words (about 330 letters) cost
25 ms, and an attack spelt this way is a sentence, not a page."""


def _printable(decoded: str) -> bool:
    if len(decoded) < 6:
        return False
    good = sum(ch.isprintable() or ch in "\n\t" for ch in decoded)
    letters = sum(ch.isalpha() for ch in decoded)
    return good >= 0.95 * len(decoded) and letters >= 0.5 * len(decoded.replace(" ", ""))


def _decode_b64(segment: str) -> str | None:
    """Standard or URL-safe base64. A segment in the standard alphabet (with "+" or "/") holds no "-" or "_":
    those at its ends belong to the text around it (`<!--SGVsbG8...-->`). Bytes that are no UTF-8 read as
    U+FFFD, up to one character in twenty: text whose encoding was damaged in copying (a translated page)
    still reads, random data does not."""
    if segment.isalpha() or segment.isdigit() or len(set(segment)) < 8:
        return None
    standard = "+" in segment or "/" in segment
    raw = segment.strip("-_") if standard else segment.replace("-", "+").replace("_", "/")
    try:
        data = base64.b64decode(raw + "=" * (-len(raw) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None
    decoded = data.decode("utf-8", "replace")
    return decoded if decoded.count("\ufffd") <= 0.05 * len(decoded) else None


def _decode_hex(segment: str) -> str | None:
    digits = re.sub(r"[ :]", "", segment)
    if len(digits) % 2:
        digits = digits[:-1]
    try:
        return bytes.fromhex(digits).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return None


def _decode_url(segment: str) -> str | None:
    decoded = unquote(segment.replace("+", " "))
    return decoded if decoded != segment else None


def _decode_b32(segment: str) -> str | None:
    try:
        return base64.b32decode(segment + "=" * (-len(segment) % 8)).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None


def _decode_selectors(segment: str) -> str | None:
    """Bytes hidden as variation selectors after an emoji (VS1-16 for 0-15, VS17-256 for 16-255)."""
    try:
        return bytes(ord(ch) - 0xFE00 if ord(ch) <= 0xFE0F else ord(ch) - 0xE0100 + 16 for ch in segment).decode()
    except UnicodeDecodeError:
        return None


def _decode_mojibake(segment: str) -> str | None:
    for codec in ("cp1252", "latin-1"):  # Windows-1252 leaves five bytes undefined; Latin-1 reads them
        try:
            return segment.encode(codec).decode("utf-8")
        except UnicodeError:
            continue
    return None


def _decode_binary(segment: str) -> str | None:
    bits = re.sub(r"[ ,]", "", segment)
    try:
        return bytes(int(bits[i : i + 8], 2) for i in range(0, len(bits) - 7, 8)).decode("utf-8")
    except UnicodeDecodeError:
        return None


def _decode_morse(segment: str) -> str | None:
    """The text, if every letter code is one and it has a few different letters (a dashed rule or a
    bullet list is not Morse: "- - - -" would read "tttt")."""
    words = [word.split() for word in re.split(r" / |   ", segment)]
    if not all(code in _MORSE_CODE for word in words for code in word):
        return None
    decoded = " ".join("".join(_MORSE_CODE[code] for code in word) for word in words)
    return decoded if len(set(decoded) - set(" .,?!/:'0123456789")) >= 4 else None


def _decode_decimal(segment: str) -> str | None:
    """The text, if every number is a printable ASCII code and it reads as English (two common words): a row of
    measurements is numbers in that range too."""
    codes = [int(number) for number in re.findall(r"\d+", segment)]
    if len(codes) < 8 or not all(32 <= code <= 126 for code in codes):
        return None
    decoded = "".join(map(chr, codes))
    return decoded if _common_words(decoded.encode("ascii")) >= 2 else None


def _escaped(match: re.Match[str]) -> str:
    hexadecimal, decimal, unicode, byte, octal = match.groups()
    number = hexadecimal or unicode or byte
    code = int(number, 16) if number else int(decimal) if decimal else int(octal, 8)
    return chr(code) if code <= 0x10FFFF else "\ufffd"


def _decode_escapes(segment: str) -> str:
    return _ESCAPE.sub(_escaped, segment)


def _decode_braille(segment: str) -> str | None:
    """Grade 1 Braille: the capital sign (⠠) dropped, a to j read as digits after the number sign (⠼) up to a
    space, and the text only if it holds few cells this table does not know."""
    out: list[str] = []
    digits = False
    for cell in segment.replace("\u2800", " "):
        if cell == "⠼":
            digits = True
        elif cell == "⠠":
            continue
        elif cell in " \n":
            digits = False
            out.append(cell)
        else:
            out.append((_BRAILLE_DIGITS if digits and cell in _BRAILLE_DIGITS else _BRAILLE_LETTERS).get(cell, "?"))
    decoded = "".join(out)
    return decoded if decoded.count("?") <= 0.1 * len(decoded) else None


def _decode_nato(segment: str) -> str:
    """The letters the code words stand for: a slash, a bar or a wider gap between them is a space; a text
    spelt without any is split into its likeliest English words."""
    groups = [
        "".join(_NATO_WORDS[word.encode()] for word in re.split(r"[ ,-]+", group.lower()) if word)
        for group in _NATO_BREAK.split(segment)
    ]
    if len(groups) == 1:
        import wordninja

        return " ".join(wordninja.split(groups[0]))
    return " ".join(groups)


def _decode_upside_down(segment: str) -> str | None:
    if sum(map(segment.count, _TURNED)) < 3:  # plain text that happens to use only the letters that turn
        return None
    return segment.translate(_UPSIDE_DOWN)[::-1]


def _decode_b85(segment: str) -> str | None:
    """Ascii85 (bare or between Adobe's `<~ ~>`) or base85 (RFC 1924, git's), whichever decodes to text. A word
    of letters and digits only is left to base64, base32 and hex."""
    if segment.isalnum() or len(set(segment)) < 8:
        return None
    raw = segment.removeprefix("<~").removesuffix("~>")
    for decode, leads in ((base64.a85decode, _A85_LEADS), (base64.b85decode, _B85_LEADS)):
        if leads.issuperset(raw[::5]):
            try:
                return decode(raw.encode("ascii")).decode("utf-8")
            except (ValueError, UnicodeDecodeError):
                continue
    return None


def _decode_sneaky_bits(segment: str) -> str | None:
    """Each word (between zero-width spaces) a run of characters of 7 bits (a letter) or 6 (a digit or a sign),
    since no leading zero is written."""
    words: list[str] = []
    for word in segment.split("\u200b"):
        bits = word.replace("\u2062", "0").replace("\u2064", "1")
        chars: list[str] = []
        i = 0
        while i < len(bits):
            width = 7 if len(bits) - i >= 7 and chr(int(bits[i : i + 7], 2)).isalpha() else 6
            if len(bits) - i < width:
                return None
            chars.append(chr(int(bits[i : i + width], 2)))
            i += width
        words.append("".join(chars))
    return " ".join(words)


def _decode_tags(segment: str) -> str:
    return "".join(chr(ord(ch) - 0xE0000) for ch in segment)


def _decode_chopped(segment: str) -> str | None:
    """The pieces joined and split into the likeliest English words, if that makes far fewer, longer words.

    `wordninja` splits by English word frequencies; it loads its word list (0.15 s) on the first text
    that has such a run.
    """
    pieces = segment.lower().split()
    if sum(piece in _SHORT_WORDS for piece in pieces) >= 0.5 * len(pieces):
        return None  # ordinary prose ("it is in a box"): most runs of short words are words
    import wordninja

    words = wordninja.split("".join(pieces))
    if len(words) <= 0.5 * len(pieces) and max(map(len, words)) >= 5:
        return " ".join(words)
    return None


def _tokens(text: bytes) -> list[bytes]:
    """The runs of word bytes of `text`, as `re.findall(rb"\\w+")` finds them, at a third of its cost (a
    translation and a split: 0.1 -> 0.03 ms on 2,000 characters)."""
    return text.translate(_GAPS_TO_SPACES).split()


def _common_words(text: bytes) -> int:
    return sum(token in _COMMON for token in _tokens(text.lower()))


_ENGLISH_LETTERS = np.array(
    [8.2, 1.5, 2.8, 4.3, 12.7, 2.2, 2.0, 6.1, 7.0, 0.15, 0.77, 4.0, 2.4, 6.7, 7.5, 1.9, 0.095, 6.0, 6.3, 9.1, 2.8,
     0.98, 2.4, 0.15, 2.0, 0.074]
)  # fmt: skip
"""Letter frequencies of English text, a to z, in per cent."""
_SHIFTED_ENGLISH = np.stack([np.roll(_ENGLISH_LETTERS, shift) for shift in range(26)], axis=1)
"""Column `shift`: English letter frequencies as they stand in a text shifted by `shift` letters."""


def _caesar_shift(text: bytes, common: int) -> int:
    """The Caesar shift other than rot13 that undoes `text` (holding `common` common words): the one whose
    letter frequencies fit English best; 0 for text that already reads as English (a common word per 40
    characters)."""
    if common * 40 >= len(text):
        return 0
    counts = np.bincount(np.frombuffer(text.lower(), dtype=np.uint8), minlength=256)[97:123]
    fits = counts @ _SHIFTED_ENGLISH
    fits[[0, 13]] = -1.0  # no shift, and rot13 (a view of its own)
    return -int(np.argmax(fits)) % 26


def _unshift(text: bytes) -> bytes:
    """`text` with its Caesar shift (`_caesar_shift`) undone, or `text` itself."""
    shift = _caesar_shift(text, _common_words(text))
    return text.translate(_SHIFTS[shift]) if shift else text


SUBSTITUTIONS: dict[str, Callable[[bytes], bytes]] = {
    "rot13": lambda text: text.translate(_SHIFTS[13]),
    "caesar": _unshift,
    "atbash": lambda text: text.translate(_ATBASH),
    "reversed": lambda text: text[::-1],
}
"""Letter substitutions undone, on ASCII; a text gets such a view only where it then reads as more English."""
_UNDONE_TO_COMMON = {
    name: frozenset(undo(word) for word in _COMMON) for name, undo in SUBSTITUTIONS.items() if name != "caesar"
}
"""The words each fixed substitution's undoing turns into `_COMMON` words (each is its own inverse)."""
_CAESAR_TO_COMMON = [frozenset(word.translate(_SHIFTS[-shift % 26]) for word in _COMMON) for shift in range(26)]
"""Per Caesar shift: the words that undoing it turns into `_COMMON` words."""
_ANY_CAESAR_TO_COMMON = frozenset().union(*(_CAESAR_TO_COMMON[shift] for shift in range(1, 26) if shift != 13))
"""The words some shift `_caesar_shift` may find turns into `_COMMON` words: a text with none needs no shift."""
_NATO_CODE_WORDS = frozenset(_NATO_WORDS)
_COUNTED = _COMMON.union(_ANY_CAESAR_TO_COMMON, _NATO_CODE_WORDS, *_UNDONE_TO_COMMON.values())
"""Every word `_untried` counts: the others need no counting (a Counter of all a text's words took 0.07 ms)."""


def _count(tokens: Counter[bytes], words: frozenset[bytes]) -> int:
    return sum(tokens[word] for word in words if word in tokens)  # a missing key costs a `__missing__` call


def _readable(ascii_text: bytes, tokens: Counter[bytes]) -> set[str]:
    """The substitutions whose undoing gives the lower-case `ascii_text` (holding the `_COUNTED` `tokens`) more
    common English words: a cheap gate. The words are counted once: an undone text's common words are the words
    its undoing maps to them."""
    common = _count(tokens, _COMMON)
    undone = dict(_UNDONE_TO_COMMON)
    if not _ANY_CAESAR_TO_COMMON.isdisjoint(tokens) and (shift := _caesar_shift(ascii_text, common)):
        undone["caesar"] = _CAESAR_TO_COMMON[shift]
    return {name for name, words in undone.items() if _count(tokens, words) > common}


def _substituted(undo: Callable[[bytes], bytes]) -> Callable[[str], str | None]:
    def decode(segment: str) -> str | None:  # `_LATIN_RUN` and `_PRINTABLE_RUN` segments are ASCII
        raw = segment.encode("ascii")
        decoded = undo(raw)
        after = _common_words(decoded)
        return decoded.decode("ascii") if after >= 3 and after > 2 * _common_words(raw) else None

    return decode


_MARKED_ENCODINGS = {
    "variation_selectors": "\ufe00-\ufe0f\U000e0100-\U000e01ef",
    "unicode_tags": "\U000e0020-\U000e007e",
    "braille": "\u2800-\u28ff",
    "sneaky_bits": "\u2062\u2064",
    "upside_down": _TURNED,
}
"""Encodings whose segments hold one of these (rare, non-ASCII) characters: one scan for all of them finds which
to try (each pattern's own scan cost 0.03 ms on 2,000 characters)."""
_MARKS_OF = {name: re.compile(f"[{chars}]") for name, chars in _MARKED_ENCODINGS.items()}
_ANY_MARK = re.compile(f"[{''.join(_MARKED_ENCODINGS.values())}]")
_NON_ASCII_ENCODINGS = frozenset({"mojibake", *_MARKED_ENCODINGS})
"""Encodings whose segments hold non-ASCII characters: an ASCII text has none to look for."""
_DECODERS: tuple[tuple[str, re.Pattern[str], Callable[[str], str | None]], ...] = (
    ("base64", _B64, _decode_b64),
    ("hex", _HEX, _decode_hex),
    ("url_encoding", _URLENC, _decode_url),
    ("base32", _B32, _decode_b32),
    ("variation_selectors", _SELECTORS, _decode_selectors),
    ("mojibake", _MOJIBAKE, _decode_mojibake),
    ("binary", _BINARY, _decode_binary),
    ("morse", _MORSE, _decode_morse),
    ("unicode_tags", _TAGS, _decode_tags),
    ("base85", _B85, _decode_b85),
    ("decimal", _DECIMAL, _decode_decimal),
    ("braille", _BRAILLE, _decode_braille),
    ("nato", _NATO, _decode_nato),
    ("upside_down", _UPSIDE_DOWN_RUN, _decode_upside_down),
    ("rot47", _PRINTABLE_RUN, _substituted(lambda text: text.translate(_ROT47))),
    ("sneaky_bits", _SNEAKY_BITS, _decode_sneaky_bits),
    ("escapes", _ESCAPES, _decode_escapes),
    ("chopped_words", _CHOPPED, _decode_chopped),
    *((name, _LATIN_RUN, _substituted(undo)) for name, undo in SUBSTITUTIONS.items()),
)


_SIXTEEN_NON_SPACES = re.compile(r"\S{16}")


def _has_run(words: list[bytes], member: Callable[[bytes], bool], length: int) -> bool:
    """Whether `length` words in a row are `member`s."""
    run = 0
    for word in words:
        run = run + 1 if member(word) else 0
        if run >= length:
            return True
    return False


_DIGITS = string.digits.encode()


def _is_code(word: bytes) -> bool:
    return 2 <= len(word) <= 3 and word.isdigit()


def _untried(text: str) -> set[str]:
    """The decoders not tried on `text`: the substitutions that would not make it read as more English, and
    the encodings whose segments it cannot hold, by counts that cost far less than a pattern's scan (0.03 to
    0.1 ms each on 2,000 characters)."""
    lowered = text.lower().encode("ascii", "replace")  # another script's letter is "?": a gap between words
    words = _tokens(lowered)
    tokens = Counter(filter(_COUNTED.__contains__, words))
    untried = set(SUBSTITUTIONS) - _readable(lowered, tokens)
    if text.isascii():
        untried |= _NON_ASCII_ENCODINGS
    else:
        marks = "".join(set(_ANY_MARK.findall(text)))
        untried.update(name for name, mark in _MARKS_OF.items() if not mark.search(marks))
    if _count(tokens, _NATO_CODE_WORDS) < 6 or not _has_run(words, _NATO_CODE_WORDS.__contains__, 6):
        untried.add("nato")  # six code words in a row are six words in a row (a scan of the text: 0.66 ms)
    if sum(map(text.count, _ROT47_MARKS)) < 6 or _common_words(text.encode().translate(_ROT47)) < 3:
        untried.add("rot47")  # no segment can read as three common words if the whole text does not
    if len(_PERCENT_ESCAPE.findall(text)) < 3:
        untried.add("url_encoding")
    if text.count("&#") + text.count("\\") < 8:
        untried.add("escapes")
    if not _SIXTEEN_NON_SPACES.search(text):  # base64 and base32 runs hold no space
        untried |= {"base64", "base32", "base85"}
    if text.count("0") + text.count("1") < 32:  # four bytes of eight bits
        untried.add("binary")
    digits = len(lowered) - len(lowered.translate(None, _DIGITS))  # a fifth of ten counts' cost
    if digits < 16 or not _has_run(words, _is_code, 8):
        untried.add("decimal")  # eight codes of two or three digits, in a row
    return untried


def decoded_segments(text: str, limit: int = _MAX_VIEWS) -> list[tuple[str, int, int, str]]:
    """`(encoding, start, end, decoded)` for each encoded segment of `text` (see the module docstring)."""
    found: list[tuple[str, int, int, str]] = []
    untried = _untried(text)
    for name, pattern, decode in _DECODERS:
        if name in untried:
            continue
        read = 0
        for match in pattern.finditer(text):
            read += match.end() - match.start()
            if read > _READ_BUDGET.get(name, read):
                break
            decoded = decode(match.group())
            if decoded is not None:
                found.append((name, match.start(), match.end(), decoded))
                if len(found) >= limit:
                    return found
    return found


_TRIGGER_WORDS = (
    "ignore", "disregard", "forget", "previous", "instructions", "instruction", "directives", "prompt", "system",
    "override", "bypass", "reveal", "password", "secret", "restrictions", "guidelines", "jailbreak", "unrestricted",
    "unfiltered", "uncensored", "developer", "pretend", "everything", "assistant", "respond", "output",
    "confidential",
)  # fmt: skip
_ONE_OFF: dict[str, str] = {
    **{word[:i] + word[i + 1 :]: word for word in reversed(_TRIGGER_WORDS) for i in range(len(word))},
    **{word: word for word in _TRIGGER_WORDS},
}
"""Each trigger word, and each string one deletion away from it: a word's misspelling shares one with it."""
_ONE_OFF_OPENINGS = frozenset(key[:3] for key in _ONE_OFF)
"""The first three letters of every `_ONE_OFF` key: a cheap test that no deletion from a token is one."""
_LONGEST = max(map(len, _TRIGGER_WORDS)) + 1
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


_NON_LETTERS_TO_SPACES = bytes.maketrans(bytes(b for b in range(256) if not 97 <= b <= 122), b" " * (256 - 26))


def _letter_runs(text: str) -> set[str]:
    """The runs of letters a-z in `text`, as `[a-z]+` finds them, each once: every other character, read as
    one byte (non-ASCII as "?"), is a space. A fifth of a pattern's scan, and prose repeats its words."""
    return set(text.encode("ascii", "replace").translate(_NON_LETTERS_TO_SPACES).decode("ascii").split())


def respelled_view(view: View) -> View | None:
    """`view` with trigger words misspelt to dodge word matching ("ignroe", "iunstructions", "overrride")
    spelt right, or None if it has none. A token is respelt only when it is one edit from a trigger word
    and no English word: "systems" and "prompted" stay. `_WORD`'s tokens are the runs of 5 to `_LONGEST`
    letters: the text's runs tell at once whether any is to be respelt (most texts: none)."""
    if not any(_respelt(run) for run in _letter_runs(view.text) if 5 <= len(run) <= _LONGEST):
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


_TRIGGER_SET = frozenset(_TRIGGER_WORDS)
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
    if len(_TRIGGER_SET.intersection(_letter_runs(unaccented))) < 2:
        return None  # a trigger word the accents hid is one of these words (most texts: 0.12 -> 0.02 ms)
    table = {ord(ch): _unaccented(ch) for ch in set(_ACCENTED.findall(view.text))}
    text = view.text.translate(table)
    if len(_TRIGGER_SET.intersection(_letter_runs(text)) - _letter_runs(view.text)) < 2:
        return None
    marks = {chr(code) for code, value in table.items() if not value}
    origin = [at for ch, at in zip(view.text, view.origin, strict=False) if ch not in marks] + [view.origin[-1]]
    return View(text, origin, "deaccented")


def decoded_views(text: str) -> list[View]:
    """The decoded segments of `text` that read as text, each as a normalised view of its own."""
    found: list[View] = []
    for name, start, end, decoded in decoded_segments(text, limit=4 * _MAX_VIEWS):
        if name not in SUBSTITUTIONS and not _printable(decoded):
            continue
        inner = normalize(decoded)
        found.append(View(inner.text, [start] * len(inner.text) + [end], name, (start, end)))
        if len(found) >= _MAX_VIEWS:
            break
    return found


def views(text: str) -> list[View]:
    """Every view the rules and the model read: the normalised text, its decoded segments, its respelling and
    its letters without their accents."""
    normalized = normalize(text)
    rewritten = (respelled_view(normalized), deaccented_view(normalized))
    return [normalized, *decoded_views(text), *(view for view in rewritten if view is not None)]
