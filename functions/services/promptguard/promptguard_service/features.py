"""Hashed features and the windows they are summed over; shared by the model and its training script.

Every feature has a position in the normalised text, so the features of any window are a slice and
a window's score is a difference of cumulative sums: the text is hashed once, however many windows
overlap. Features:

- character 3-, 4- and 5-grams (digits read as `0`, so numbers and dates carry no vocabulary);
- word unigrams and bigrams;
- structural flags per window (see `structure`), which do not depend on vocabulary at all.

Windows are lines (long lines cut at sentences, long sentences at `SEGMENT_CHARS`) and every run of
consecutive segments up to `WINDOW_CHARS`: a long document is judged by its worst window, so it is
neither diluted by its length nor flagged for it.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

DIM = 1 << 18
SEGMENT_CHARS = 320
WINDOW_CHARS = 640

_PRIME = np.uint64(1_000_003)
_MIX = np.uint64(0x9E3779B97F4A7C15)
_SHIFT_31, _SHIFT_29 = np.uint64(31), np.uint64(29)
_BUCKET = np.uint64(DIM - 1)
_WORDS = re.compile(r"(\w+)")
"""Splits a text into gap, word, gap, word, ..., gap: the words and, from the lengths, where each starts."""
_LINE = re.compile(r"[^\n]+")
_SENTENCE_END = re.compile(r"(?<=[.!?;。！？؟।])\s+|(?<=[。！？])")

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Hashed:
    """Feature indices of one text and the text offset each one starts at, in no particular order: the
    model sums them per offset (`np.bincount`), so sorting them (0.1-0.2 ms per 2,000 characters) buys nothing."""

    index: IntArray
    position: IntArray

    def by_position(self) -> Hashed:
        """The same features sorted by offset (stably): a window's are then one slice."""
        order = np.argsort(self.position, kind="stable")
        return Hashed(self.index[order], self.position[order])


def _mix(values: npt.NDArray[np.uint64], salt: int) -> IntArray:
    """`values` salted, mixed and cut to `DIM` buckets, in place where it can be (integer arrays wrap around
    silently: no overflow warning to silence)."""
    h = values ^ np.uint64(salt * 0x2545F4914F6CDD1D & ((1 << 64) - 1))
    h ^= h >> _SHIFT_31
    h *= _MIX
    h ^= h >> _SHIFT_29
    h &= _BUCKET  # the same as `% DIM` for a power of two, at half the cost
    return h.astype(np.int64)


def hash_text(text: str) -> Hashed:
    """Hash the n-grams of a normalised text (see the module docstring)."""
    codes = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    digits = (codes >= 48) & (codes <= 57)
    codes[digits] = 48
    indices: list[IntArray] = []
    positions: list[IntArray] = []
    length = len(codes)
    h = codes[: max(length - 2, 0)] * _PRIME + codes[1 : length - 1]  # bigram hashes, one short
    for n in (3, 4, 5):
        if length < n:
            break
        h = h[: length - n + 1] * _PRIME + codes[n - 1 :]  # the (n-1)-gram's hash extended by a letter
        indices.append(_mix(h, n))
        positions.append(np.arange(length - n + 1, dtype=np.int64))
    parts = _WORDS.split(text)  # no Match object per word: 0.2 -> 0.15 ms on 2,000 characters
    words = parts[1::2]
    if words:
        lengths = np.fromiter(map(len, parts), dtype=np.int64, count=len(parts))
        starts = (np.cumsum(lengths) - lengths)[1::2]
        ids = np.fromiter(map(zlib.crc32, map(str.encode, words)), dtype=np.uint64, count=len(words))
        indices.append(_mix(ids, 11))
        positions.append(starts)
        if len(words) > 1:
            indices.append(_mix(ids[:-1] * _PRIME + ids[1:], 12))
            positions.append(starts[:-1])
    if not indices:
        return Hashed(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
    return Hashed(np.concatenate(indices), np.concatenate(positions))


def segments(text: str) -> list[tuple[int, int]]:
    """Lines, long lines cut at sentence ends, long sentences cut at `SEGMENT_CHARS`."""
    out: list[tuple[int, int]] = []
    for line in _LINE.finditer(text):
        if not line.group().strip():
            continue
        start, end = line.start(), line.end()
        if end - start <= SEGMENT_CHARS:
            out.append((start, end))
            continue
        cut = start
        for match in _SENTENCE_END.finditer(text, start, end):
            if match.end() - cut >= 24:
                out.extend(_chop(cut, match.end()))
                cut = match.end()
        if cut < end:
            out.extend(_chop(cut, end))
    return out


def _chop(start: int, end: int) -> list[tuple[int, int]]:
    return [(s, min(s + SEGMENT_CHARS, end)) for s in range(start, end, SEGMENT_CHARS)]


def windows(segs: list[tuple[int, int]]) -> list[tuple[int, int, int, int]]:
    """Each segment and each longest run of segments from it within `WINDOW_CHARS`.

    Returned as `(start, end, first_segment, last_segment)`; a text of at most `WINDOW_CHARS`
    is always one window from its first to its last segment.
    """
    out: list[tuple[int, int, int, int]] = []
    j = 0
    for i, (start, end) in enumerate(segs):
        out.append((start, end, i, i))
        j = max(j, i)
        while j + 1 < len(segs) and segs[j + 1][1] - start <= WINDOW_CHARS:
            j += 1
        if j > i:
            out.append((start, segs[j][1], i, j))
    return out
