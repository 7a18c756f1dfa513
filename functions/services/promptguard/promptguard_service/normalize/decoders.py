"""Decoded views: the encoded segments of a text and their decodings (see the package docstring).

Each encoding is one `Decoder`, declared where its decoding is written (`@_decoder(...)`): the pattern of its
segments, the decoding, and the cheap test (`absent`, `marks`) that skips a text that cannot hold one. A new
encoding is one block here; `DECODERS` is every block, in the order segments are read.
"""

from __future__ import annotations

import base64
import binascii
import re
import string
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING
from urllib.parse import unquote

import numpy as np

from promptguard_service.normalize.folding import normalize
from promptguard_service.normalize.view import View
from promptguard_service.openings import with_opening

if TYPE_CHECKING:
    from collections.abc import Callable

_MAX_VIEWS = 16
_COMMON = frozenset(
    b"the and you your to of is are all with for this that ignore instruction instructions prompt system".split()
)
"""Common English words, counted in ASCII bytes: the substitutions below are byte translations (fast)."""
_WORD_BYTES = frozenset((string.ascii_letters + string.digits + "_").encode())
_GAPS_TO_SPACES = bytes.maketrans(bytes(b for b in range(256) if b not in _WORD_BYTES), b" " * (256 - len(_WORD_BYTES)))
"""Every byte but a word byte (`\\w` in a bytes pattern: ASCII letters, digits, `_`) read as a space."""


def _printable(decoded: str) -> bool:
    if len(decoded) < 6:
        return False
    good = sum(ch.isprintable() or ch in "\n\t" for ch in decoded)
    letters = sum(ch.isalpha() for ch in decoded)
    return good >= 0.95 * len(decoded) and letters >= 0.5 * len(decoded.replace(" ", ""))


def _tokens(text: bytes) -> list[bytes]:
    """The runs of word bytes of `text`, as `re.findall(rb"\\w+")` finds them, at a third of its cost (a
    translation and a split: 0.1 -> 0.03 ms on 2,000 characters)."""
    return text.translate(_GAPS_TO_SPACES).split()


def _common_words(text: bytes) -> int:
    return sum(token in _COMMON for token in _tokens(text.lower()))


def _count(tokens: Counter[bytes], words: frozenset[bytes]) -> int:
    return sum(tokens[word] for word in words if word in tokens)  # a missing key costs a `__missing__` call


def _has_run(words: list[bytes], member: Callable[[bytes], bool], length: int) -> bool:
    """Whether `length` words in a row are `member`s."""
    run = 0
    for word in words:
        run = run + 1 if member(word) else 0
        if run >= length:
            return True
    return False


class Probe:
    """A text and what the decoders' cheap tests read of it, each counted once and only if a test asks: counts
    that cost far less than a pattern's scan (0.03 to 0.1 ms each on 2,000 characters)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.ascii = text.isascii()

    @cached_property
    def lowered(self) -> bytes:
        """The text lower-cased, in ASCII: another script's letter is "?", a gap between words."""
        return self.text.lower().encode("ascii", "replace")

    @cached_property
    def words(self) -> list[bytes]:
        return _tokens(self.lowered)

    @cached_property
    def tokens(self) -> Counter[bytes]:
        """The words some test counts, counted (a Counter of all a text's words took 0.07 ms)."""
        return Counter(filter(_COUNTED.__contains__, self.words))

    @cached_property
    def readable(self) -> set[str]:
        """The letter substitutions whose undoing makes the text read as more English (`_readable`)."""
        return _readable(self.lowered, self.tokens)

    @cached_property
    def long_run(self) -> bool:
        """Sixteen characters in a row and no space among them (one scan for base64, base32 and base85)."""
        return _SIXTEEN_NON_SPACES.search(self.text) is not None

    @cached_property
    def marks(self) -> str:
        """The marked encodings' characters the text holds (`Decoder.marks`), found in one scan for all of them
        (each pattern's own scan cost 0.03 ms on 2,000 characters)."""
        return "".join(set(_ANY_MARK.findall(self.text)))


@dataclass(frozen=True)
class Decoder:
    """One encoding: what its segments look like, how one is decoded, and when a text cannot hold one."""

    name: str
    segments: re.Pattern[str]
    decode: Callable[[str], str | None]
    absent: Callable[[Probe], bool] | None = None
    """True where the text holds no segment this decoder would decode: its pattern's scan is skipped."""
    marks: str = ""
    """A character class's body (rare, non-ASCII characters) of which every segment holds one: a text without
    any is skipped, by one scan for every marked encoding (`Probe.marks`)."""
    budget: int | None = None
    """Characters per text a costly decoder reads. wordninja's split grows with the run: 100,000 characters
    of short-word runs ("- send send send …" lines) took 2.7 s; capped, 0.2 s. A NATO run without word breaks
    is split by wordninja too, at about 70 µs a letter: 2,000 characters of code words (about 330 letters) cost
    25 ms, and an attack spelt this way is a sentence, not a page."""
    _marked: re.Pattern[str] | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_marked", re.compile(f"[{self.marks}]") if self.marks else None)

    def skips(self, probe: Probe) -> bool:
        """Whether `probe`'s text cannot hold a segment this decoder decodes."""
        if self._marked is not None and (probe.ascii or not self._marked.search(probe.marks)):
            return True
        return self.absent is not None and self.absent(probe)


DECODERS: list[Decoder] = []
"""Every encoding, in the order a text's segments are read (and counted against the views' limit)."""


def _decoder(
    name: str,
    segments: re.Pattern[str],
    *,
    absent: Callable[[Probe], bool] | None = None,
    marks: str = "",
    budget: int | None = None,
) -> Callable[[Callable[[str], str | None]], Callable[[str], str | None]]:
    """Registers the decoding it decorates as the encoding `name` (see `Decoder`)."""

    def register(decode: Callable[[str], str | None]) -> Callable[[str], str | None]:
        DECODERS.append(Decoder(name, segments, decode, absent, marks, budget))
        return decode

    return register


def _is_ascii(probe: Probe) -> bool:
    return probe.ascii


def _substituted(undo: Callable[[bytes], bytes]) -> Callable[[str], str | None]:
    def decode(segment: str) -> str | None:  # `_LATIN_RUN` and `_PRINTABLE_RUN` segments are ASCII
        raw = segment.encode("ascii")
        decoded = undo(raw)
        after = _common_words(decoded)
        return decoded.decode("ascii") if after >= 3 and after > 2 * _common_words(raw) else None

    return decode


# ---------------------------------------------------------------- base64, hex, URL encoding, base32

_SIXTEEN_NON_SPACES = re.compile(r"\S{16}")


def _no_long_run(probe: Probe) -> bool:
    """base64, base32 and base85 runs hold no space."""
    return not probe.long_run


_B64 = re.compile(r"(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{16,}={0,2}(?![A-Za-z0-9+/=_])")
"""A run of base64 letters and its padding; a "-" may follow the padding (`<!--SGVsbG8=-->`)."""


@_decoder("base64", _B64, absent=_no_long_run)
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


_HEX = with_opening(r"(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}[ :]?){8,}(?![0-9A-Fa-f])")


@_decoder("hex", _HEX)
def _decode_hex(segment: str) -> str | None:
    digits = re.sub(r"[ :]", "", segment)
    if len(digits) % 2:
        digits = digits[:-1]
    try:
        return bytes.fromhex(digits).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return None


_URLENC = re.compile(r"(?:%[0-9A-Fa-f]{2}|[A-Za-z0-9._~+-]){0,40}(?:%[0-9A-Fa-f]{2}[A-Za-z0-9._~+-]{0,12}){3,}")
_PERCENT_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")
"""One %XX; `_URLENC` needs three, and is costly to try on every text with a per cent sign in it."""


def _few_percent_escapes(probe: Probe) -> bool:
    return len(_PERCENT_ESCAPE.findall(probe.text)) < 3


@_decoder("url_encoding", _URLENC, absent=_few_percent_escapes)
def _decode_url(segment: str) -> str | None:
    decoded = unquote(segment.replace("+", " "))
    return decoded if decoded != segment else None


_B32 = with_opening(r"(?<![A-Z2-7])[A-Z2-7]{16,}={0,6}(?![A-Z2-7=])")


@_decoder("base32", _B32, absent=_no_long_run)
def _decode_b32(segment: str) -> str | None:
    try:
        return base64.b32decode(segment + "=" * (-len(segment) % 8)).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None


# ---------------------------------------------------------------- hidden in Unicode, mojibake, bits, Morse

_SELECTORS = re.compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef]{4,}")


@_decoder("variation_selectors", _SELECTORS, marks="\ufe00-\ufe0f\U000e0100-\U000e01ef")
def _decode_selectors(segment: str) -> str | None:
    """Bytes hidden as variation selectors after an emoji (VS1-16 for 0-15, VS17-256 for 16-255)."""
    try:
        return bytes(ord(ch) - 0xFE00 if ord(ch) <= 0xFE0F else ord(ch) - 0xE0100 + 16 for ch in segment).decode()
    except UnicodeDecodeError:
        return None


# Mojibake: a line holding a lead byte of a multi-byte UTF-8 character (Â-ô) followed by what a
# continuation byte (0x80-0xBF) reads as in Windows-1252.
_MOJIBAKE = re.compile(  # anchored at line starts: unanchored, each position rescans its line (quadratic)
    "^.*[\u00c2-\u00f4][\u00a0-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc"
    "\u2013\u2014\u2018-\u201a\u201c-\u201e\u2020-\u2022\u2026\u2030\u2039\u203a\u20ac\u2122].*$",
    re.MULTILINE,
)


@_decoder("mojibake", _MOJIBAKE, absent=_is_ascii)
def _decode_mojibake(segment: str) -> str | None:
    for codec in ("cp1252", "latin-1"):  # Windows-1252 leaves five bytes undefined; Latin-1 reads them
        try:
            return segment.encode(codec).decode("utf-8")
        except UnicodeError:
            continue
    return None


_BINARY = with_opening(r"(?<![01])(?:[01]{8}[ ,]?){4,}(?![01])")


def _few_bits(probe: Probe) -> bool:
    return probe.text.count("0") + probe.text.count("1") < 32  # four bytes of eight bits


@_decoder("binary", _BINARY, absent=_few_bits)
def _decode_binary(segment: str) -> str | None:
    bits = re.sub(r"[ ,]", "", segment)
    try:
        return bytes(int(bits[i : i + 8], 2) for i in range(0, len(bits) - 7, 8)).decode("utf-8")
    except UnicodeDecodeError:
        return None


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


@_decoder("morse", _MORSE)
def _decode_morse(segment: str) -> str | None:
    """The text, if every letter code is one and it has a few different letters (a dashed rule or a
    bullet list is not Morse: "- - - -" would read "tttt")."""
    words = [word.split() for word in re.split(r" / |   ", segment)]
    if not all(code in _MORSE_CODE for word in words for code in word):
        return None
    decoded = " ".join("".join(_MORSE_CODE[code] for code in word) for word in words)
    return decoded if len(set(decoded) - set(" .,?!/:'0123456789")) >= 4 else None


_TAGS = re.compile("[\U000e0020-\U000e007e]{4,}")


@_decoder("unicode_tags", _TAGS, marks="\U000e0020-\U000e007e")
def _decode_tags(segment: str) -> str:
    return "".join(chr(ord(ch) - 0xE0000) for ch in segment)


# ---------------------------------------------------------------- base85, decimal codes, Braille, NATO words

_B85 = re.compile(r"(?<![!-~])[!-~]{20,}")
_A85_LEADS = frozenset(chr(code) for code in range(33, 33 + 41))
_B85_LEADS = frozenset((string.digits + string.ascii_uppercase + string.ascii_lowercase)[:41])
"""The digits a group of five opens with when its four bytes are ASCII (below 2**31 = 41 * 85**4): a text
whose every fifth character is one is worth decoding (a Python-level decoder: 0.02 ms per address tried)."""


@_decoder("base85", _B85, absent=_no_long_run)
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


_DECIMAL = with_opening(r"(?<![0-9A-Za-z_.])(?:[0-9]{2,3}(?:, ?| |;)){7,}[0-9]{2,3}(?![0-9A-Za-z_.])")
"""Character codes written as decimal numbers ("73 103 110 111 114 101"): eight or more, see `_decode_decimal`.
`[0-9]`, not `\\d`, so that `with_opening` can list what a match opens with (0.22 -> 0.06 ms on 2,000
characters of news); each number a whole word, as `_untried`'s tokens read it."""
_DIGITS = string.digits.encode()


def _is_code(word: bytes) -> bool:
    return 2 <= len(word) <= 3 and word.isdigit()


def _no_code_run(probe: Probe) -> bool:
    """Fewer than eight codes of two or three digits in a row."""
    digits = len(probe.lowered) - len(probe.lowered.translate(None, _DIGITS))  # a fifth of ten counts' cost
    return digits < 16 or not _has_run(probe.words, _is_code, 8)


@_decoder("decimal", _DECIMAL, absent=_no_code_run)
def _decode_decimal(segment: str) -> str | None:
    """The text, if every number is a printable ASCII code and it reads as English (two common words): a row of
    measurements is numbers in that range too."""
    codes = [int(number) for number in re.findall(r"\d+", segment)]
    if len(codes) < 8 or not all(32 <= code <= 126 for code in codes):
        return None
    decoded = "".join(map(chr, codes))
    return decoded if _common_words(decoded.encode("ascii")) >= 2 else None


_BRAILLE_LETTERS = dict(zip("⠁⠃⠉⠙⠑⠋⠛⠓⠊⠚⠅⠇⠍⠝⠕⠏⠟⠗⠎⠞⠥⠧⠺⠭⠽⠵⠲⠂⠦⠖⠄⠤⠒⠆⠌", "abcdefghijklmnopqrstuvwxyz.,?!'-:;/", strict=True))
"""Uncontracted (grade 1) English Braille: letters and punctuation."""
_BRAILLE_DIGITS = dict(zip("⠁⠃⠉⠙⠑⠋⠛⠓⠊⠚", "1234567890", strict=True))
"""Letters a to j after the number sign (⠼) are the digits."""
_BRAILLE = re.compile("[\u2800-\u28ff]+(?:[ \n][\u2800-\u28ff]+)*")


@_decoder("braille", _BRAILLE, marks="\u2800-\u28ff")
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
_NATO_CODE_WORDS = frozenset(_NATO_WORDS)


def _no_code_words(probe: Probe) -> bool:
    """Fewer than six NATO code words in a row (six code words in a row are six words in a row: a scan of the
    text took 0.66 ms)."""
    return _count(probe.tokens, _NATO_CODE_WORDS) < 6 or not _has_run(probe.words, _NATO_CODE_WORDS.__contains__, 6)


@_decoder("nato", _NATO, absent=_no_code_words, budget=2_000)
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


# ---------------------------------------------------------------- upside down, ROT47, sneaky bits, escapes

_TURNED = "ɐɔǝɟƃɥᴉɾʞʅɯɹʇʌʍʎ"
"""The letters of text written upside down that are no plain letter ("ɐ" a, "ǝ" e, "ɹ" r). Not its marks ("˙",
"¿", "¡"): Spanish writes the last two, and every Spanish text would be scanned for runs (1 ms on 2,000
characters)."""
_UPSIDE_DOWN = str.maketrans("ɐqɔpǝɟƃɥᴉɾʞʅlɯuodbɹsʇnʌʍxʎz˙¿¡", "abcdefghijkllmnopqrstuvwxyz.?!")
"""Upside-down letters read back: turned letters, and the plain letters that turn into another (q b, d p, n u)."""
_UPSIDE_DOWN_RUN = re.compile(f"[{_TURNED}qpdbnuolsxz ,'.˙¿¡]+")


@_decoder("upside_down", _UPSIDE_DOWN_RUN, marks=_TURNED)
def _decode_upside_down(segment: str) -> str | None:
    if sum(map(segment.count, _TURNED)) < 3:  # plain text that happens to use only the letters that turn
        return None
    return segment.translate(_UPSIDE_DOWN)[::-1]


_ROT47 = bytes.maketrans(bytes(range(33, 127)), bytes(range(80, 127)) + bytes(range(33, 80)))
"""ROT47: each printable ASCII character but the space moved 47 places on (its own inverse)."""
_ROT47_MARKS = "@?:="
"""What ROT47 makes of "o", "n", "i" and "l": in English text written in ROT47 about a fifth of the characters."""
_PRINTABLE_RUN = re.compile(r"[!-~]+(?: [!-~]+){3,}")


def _no_rot47(probe: Probe) -> bool:
    """No segment can read as three common words if the whole text does not."""
    text = probe.text
    return sum(map(text.count, _ROT47_MARKS)) < 6 or _common_words(text.encode().translate(_ROT47)) < 3


DECODERS.append(Decoder("rot47", _PRINTABLE_RUN, _substituted(lambda text: text.translate(_ROT47)), _no_rot47))


_SNEAKY_BITS = re.compile("[\u2062\u2064\u200b]{24,}")
"""ASCII written in invisible bits: U+2062 for 0, U+2064 for 1, each character its bits without leading zeros, a
zero-width space for a space ("Sneaky Bits")."""


@_decoder("sneaky_bits", _SNEAKY_BITS, marks="\u2062\u2064")
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


_ESCAPE = re.compile(
    r"&#[xX]([0-9a-fA-F]{1,6});|&#([0-9]{1,7});|\\[uU]([0-9a-fA-F]{4})|\\[xX]([0-9a-fA-F]{2})|\\([0-7]{3})"
)
"""One character written as an escape: an HTML numeric entity (hex or decimal), a `\\u` or `\\x` escape of
JSON, C or Python source, or an octal `\\ooo`."""
_ESCAPES = with_opening(rf"(?:(?:{_ESCAPE.pattern})\s?){{8,}}")
"""Eight or more escapes in a row: a word or more written so that no rule reads it (`&#73;&#103;&#110;`)."""


def _escaped(match: re.Match[str]) -> str:
    hexadecimal, decimal, unicode, byte, octal = match.groups()
    number = hexadecimal or unicode or byte
    code = int(number, 16) if number else int(decimal) if decimal else int(octal, 8)
    return chr(code) if code <= 0x10FFFF else "\ufffd"


def _few_escapes(probe: Probe) -> bool:
    return probe.text.count("&#") + probe.text.count("\\") < 8


@_decoder("escapes", _ESCAPES, absent=_few_escapes)
def _decode_escapes(segment: str) -> str:
    return _ESCAPE.sub(_escaped, segment)


# ---------------------------------------------------------------- chopped words, letter substitutions

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


@_decoder("chopped_words", _CHOPPED, budget=8_000)
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


_LATIN_RUN = re.compile(r"[A-Za-z][A-Za-z ,.'!?:;-]{30,}")
_LOWER, _UPPER = string.ascii_lowercase.encode(), string.ascii_uppercase.encode()
_SHIFTS = [bytes.maketrans(_LOWER + _UPPER, _LOWER[k:] + _LOWER[:k] + _UPPER[k:] + _UPPER[:k]) for k in range(26)]
"""Caesar shifts: `_SHIFTS[k]` moves each letter k places on."""
_ATBASH = bytes.maketrans(_LOWER + _UPPER, _LOWER[::-1] + _UPPER[::-1])
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


def _readable(ascii_text: bytes, tokens: Counter[bytes]) -> set[str]:
    """The substitutions whose undoing gives the lower-case `ascii_text` (holding the `_COUNTED` `tokens`) more
    common English words: a cheap gate. The words are counted once: an undone text's common words are the words
    its undoing maps to them."""
    common = _count(tokens, _COMMON)
    undone = dict(_UNDONE_TO_COMMON)
    if not _ANY_CAESAR_TO_COMMON.isdisjoint(tokens) and (shift := _caesar_shift(ascii_text, common)):
        undone["caesar"] = _CAESAR_TO_COMMON[shift]
    return {name for name, words in undone.items() if _count(tokens, words) > common}


def _unreadable(name: str) -> Callable[[Probe], bool]:
    def absent(probe: Probe) -> bool:
        return name not in probe.readable

    return absent


DECODERS.extend(
    Decoder(name, _LATIN_RUN, _substituted(undo), _unreadable(name)) for name, undo in SUBSTITUTIONS.items()
)
_COUNTED = _COMMON.union(_ANY_CAESAR_TO_COMMON, _NATO_CODE_WORDS, *_UNDONE_TO_COMMON.values())
"""Every word `_untried` counts: the others need no counting (a Counter of all a text's words took 0.07 ms)."""
_ANY_MARK = re.compile(f"[{''.join(decoder.marks for decoder in DECODERS)}]")


def decoded_segments(text: str, limit: int = _MAX_VIEWS) -> list[tuple[str, int, int, str]]:
    """`(encoding, start, end, decoded)` for each encoded segment of `text` (see the package docstring)."""
    found: list[tuple[str, int, int, str]] = []
    probe = Probe(text)
    for decoder in DECODERS:
        if decoder.skips(probe):
            continue
        read = 0
        for match in decoder.segments.finditer(text):
            read += match.end() - match.start()
            if decoder.budget is not None and read > decoder.budget:
                break
            decoded = decoder.decode(match.group())
            if decoded is not None:
                found.append((decoder.name, match.start(), match.end(), decoded))
                if len(found) >= limit:
                    return found
    return found


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
