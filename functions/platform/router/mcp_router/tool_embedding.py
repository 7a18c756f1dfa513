"""Sentence vectors for tools_search: WordLlama's static token embeddings, averaged, in pure Python.

WordLlama ships its weights inside its wheel (nothing is downloaded); `scripts/build_tool_vectors.py`
copies what the ranking needs from it into `data/` (the token vectors as int8 with a scale per
token, 8.3 MB, and the tokenizer's vocabulary and merges), so the router needs neither numpy nor
the `tokenizers`/`huggingface_hub` stack at run time. A text's vector is the mean of its tokens'
vectors, normalised, as WordLlama computes it; its tokens are those of Llama 2's byte-fallback BPE
(checked against `tokenizers` in tests/unit/test_tool_embedding.py).
"""

from __future__ import annotations

import gzip
import json
import math
import re
from array import array
from functools import cache, lru_cache
from importlib.resources import files
from itertools import pairwise
from operator import mul
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

DIMENSIONS = 256
_SPACE = "\u2581"  # SentencePiece's word boundary: the text starts with one and each space becomes one
_WORD = re.compile(f"{_SPACE}[^{_SPACE}]*|[^{_SPACE}]+")
MAX_QUERY_CHARS = 1000
"""Longer texts are cut here: the mean of a thousand characters' tokens says what more would."""


class BytePairTokenizer:
    """Llama 2's tokenizer (BPE with byte fallback), word by word: `encode` gives token ids."""

    def __init__(self, vocab: Sequence[str], merges: Sequence[str]) -> None:
        self._ids = {token: i for i, token in enumerate(vocab)}
        self._ranks = {tuple(merge.split(" ", 1)): rank for rank, merge in enumerate(merges)}

    def encode(self, text: str) -> list[int]:
        if not text.strip():
            return []
        normalised = _SPACE + " ".join(text.split()).replace(" ", _SPACE)
        return [i for word in _WORD.findall(normalised) for i in self._word(word)]

    @lru_cache(maxsize=4096)  # noqa: B019 - one tokenizer per process (`wordllama()` is cached)
    def _word(self, word: str) -> tuple[int, ...]:
        parts = list(word)
        while len(parts) > 1:
            ranked = [(self._ranks.get(pair, math.inf), i) for i, pair in enumerate(pairwise(parts))]
            rank, i = min(ranked)
            if rank == math.inf:
                break
            parts[i : i + 2] = [parts[i] + parts[i + 1]]
        ids: list[int] = []
        for part in parts:
            if part in self._ids:
                ids.append(self._ids[part])
            else:  # byte fallback: a character outside the vocabulary is spelled as its UTF-8 bytes
                ids.extend(self._ids[f"<0x{byte:02X}>"] for byte in part.encode())
        return tuple(ids)


class StaticEmbedding:
    """Unit-length sentence vectors (lists of `DIMENSIONS` floats); an empty text's is all zeros."""

    def __init__(self, tokenizer: BytePairTokenizer, rows: array[int], scales: array[float]) -> None:
        self._tokenizer = tokenizer
        self._rows = rows
        self._scales = scales

    def embed(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        return [self._embed(text[:MAX_QUERY_CHARS]) for text in texts]

    @lru_cache(maxsize=1024)  # noqa: B019 - one embedding per process; keeps the tools' vectors across gateways
    def _embed(self, text: str) -> tuple[float, ...]:
        total = [0.0] * DIMENSIONS
        for token in self._tokenizer.encode(text):
            scale = self._scales[token]
            row = self._rows[token * DIMENSIONS : (token + 1) * DIMENSIONS]
            total = [t + scale * v for t, v in zip(total, row, strict=True)]
        norm = math.sqrt(sum(map(mul, total, total))) or 1.0
        return tuple(t / norm for t in total)


@cache
def wordllama() -> StaticEmbedding:
    """WordLlama's 256-dimension embedding from `data/`, loaded once per process."""
    data = files("mcp_router") / "data"
    bpe = json.loads(gzip.decompress(data.joinpath("wordllama_bpe.json.gz").read_bytes()))
    table = data.joinpath("wordllama_256_int8.bin").read_bytes()
    tokens = len(bpe["vocab"])
    rows = array("b", table[: tokens * DIMENSIONS])
    scales = array("f", table[tokens * DIMENSIONS :])
    assert len(scales) == tokens, "the vectors and the vocabulary come from the same wheel"
    return StaticEmbedding(BytePairTokenizer(bpe["vocab"], bpe["merges"]), rows, scales)
