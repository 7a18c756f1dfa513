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

Modules: `folding` (the normalised view), `decoders` (the encodings: their segments, their decoding and
the cheap tests that skip them), `respelling`, `deaccent`, `triggers` (the English words those two look
for) and `view` (`View`, a text and its offsets).
"""

from __future__ import annotations

from promptguard_service.normalize.deaccent import deaccented_view
from promptguard_service.normalize.decoders import SUBSTITUTIONS, decoded_segments, decoded_views
from promptguard_service.normalize.folding import normalize
from promptguard_service.normalize.respelling import preload, respelled_view
from promptguard_service.normalize.view import View

__all__ = [
    "SUBSTITUTIONS",
    "View",
    "deaccented_view",
    "decoded_segments",
    "decoded_views",
    "normalize",
    "preload",
    "respelled_view",
    "views",
]


def views(text: str) -> list[View]:
    """Every view the rules and the model read: the normalised text, its decoded segments, its respelling and
    its letters without their accents."""
    normalized = normalize(text)
    rewritten = (respelled_view(normalized), deaccented_view(normalized))
    return [normalized, *decoded_views(text), *(view for view in rewritten if view is not None)]
