"""Ranking the catalogue for a request in plain words: BM25F with a small vocabulary, mixed with sentence vectors.

The index is built from the registry's `ToolSpec`s (names, titles, descriptions,
parameter descriptions, the service's own description), so it lists exactly the
tools `tools/list` does and cannot drift from them. Each field is weighted (a
word of a tool's name or title says more than one in a parameter's description),
words are reduced to a crude stem, and the query is widened with the
vocabulary in `tool_search_vocabulary.py` (what people say → what the
descriptions say) at a lower weight than its own words.

Words alone miss paraphrases (*turn this voice memo into text* shares no word with
"Transcribes a recording"), so when an embedding is given (`tool_embedding.py`) each
tool's score is a mix: its BM25F score over the query's best one, and the cosine of the
query's vector (its words and the vocabulary's) with the vector of the tool's name, title
and first sentence (computed once, when the index is built). The router passes WordLlama (`mcp_router.tool_embedding`).
About a millisecond a query over the whole catalogue.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from itertools import pairwise
from operator import mul
from typing import TYPE_CHECKING, Any, Protocol

from mcp_platform.catalogue.tool_search_vocabulary import EXPANSIONS, STOPWORDS

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    from mcp_platform.catalogue.registry import ToolSpec

FIELD_WEIGHTS = {"name": 3.0, "title": 3.0, "summary": 2.0, "description": 1.0, "parameters": 0.5, "service": 0.5}
"""How much a word found in each field counts (BM25F: weighted term frequencies)."""
EXPANSION_WEIGHT = 0.4
"""A word the vocabulary adds counts this much of one the caller wrote."""
SEMANTIC_WEIGHT = 0.7
"""The embedding's share of the mixed score (BM25F scaled to the query's best is the rest): chosen by
5-fold and leave-one-service-out cross-validation over tasks.jsonl (bench/discovery.py --cv)."""
STATUS_PENALTY = 0.5
"""`*_status` tools describe the service, so they match many requests weakly: halved unless asked for."""
_K1 = 1.2
_B = 0.6
_WORD = re.compile(r"[a-z0-9]+")
_SENTENCE_END = re.compile(r"(?<!e\.g\.)(?<!i\.e\.)(?<!incl\.)(?<=[.!?])\s+(?=[A-Z`])")
"""A sentence ends at . ! or ? before a capital, but not after e.g., i.e. or incl."""
_STATUS_WORDS = frozenset({"status", "health", "healthy", "version", "engine", "backend", "provider", "loaded"})


def stem(word: str) -> str:
    """A crude suffix stripper: enough to meet `cities`/`city`, `recalled`/`recall`, `bordering`/`border`."""
    for suffix, replacement in (
        ("ies", "y"),
        ("ing", ""),
        ("ed", ""),
        ("es", ""),
        ("s", ""),
    ):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            return word[: -len(suffix)] + replacement
    return word


def words(text: str) -> list[str]:
    """Lower-cased stems of `text` without stopwords (`_` splits names: `geo_country_get` → geo country get)."""
    return [stem(w) for w in _WORD.findall(text.lower().replace("_", " ")) if w not in STOPWORDS]


def summary(description: str) -> str:
    """A description's first sentence: what `tools_search` shows as the tool's one line."""
    return _SENTENCE_END.split(description.strip(), maxsplit=1)[0]


class Embedding(Protocol):
    def embed(self, texts: Sequence[str]) -> Sequence[Sequence[float]]:
        """One unit-length vector per text."""
        ...


@dataclass(frozen=True)
class Hit:
    spec: ToolSpec
    score: float


class ToolIndex:
    """BM25F over the catalogue; `search` answers the best tools first."""

    def __init__(
        self,
        specs: Iterable[ToolSpec],
        service_descriptions: dict[str, str],
        *,
        weights: Mapping[str, float] = FIELD_WEIGHTS,
        vocabulary: Mapping[str, tuple[str, ...]] = EXPANSIONS,
        embedding: Embedding | None = None,
        semantic_weight: float = SEMANTIC_WEIGHT,
    ) -> None:
        """`weights` and `vocabulary` are the ranking's; the benchmark passes plain ones to measure BM25 alone.

        Without `embedding` the score is BM25F alone.
        """
        self._specs = list(specs)
        self._vocabulary = vocabulary
        self._embedding = embedding
        self._semantic_weight = semantic_weight if embedding else 0.0
        self._vectors = embedding.embed([embedding_text(spec) for spec in self._specs]) if embedding else None
        weights = {f: w for f, w in weights.items() if w}
        fields = [_fields(spec, service_descriptions.get(spec.service, "")) for spec in self._specs]
        average = {f: sum(len(d[f]) for d in fields) / max(1, len(fields)) or 1.0 for f in weights}
        # Each term's BM25F score in each tool that has it, computed once: a query only adds them up.
        weighted: dict[str, dict[int, float]] = {}
        for i, doc in enumerate(fields):
            for f, weight in weights.items():
                norm = 1 - _B + _B * len(doc[f]) / average[f]
                for term, count in Counter(doc[f]).items():
                    postings = weighted.setdefault(term, {})
                    postings[i] = postings.get(i, 0.0) + weight * count / norm
        n = len(self._specs)
        self._postings = {
            term: {i: _idf(n, len(tfs)) * tf * (_K1 + 1) / (tf + _K1) for i, tf in tfs.items()}
            for term, tfs in weighted.items()
        }

    def search(self, query: str, limit: int = 5, allowed: frozenset[str] | None = None) -> list[Hit]:
        """The `limit` best tools for `query` (ties in catalogue order), among `allowed` names when given."""
        status_asked = bool(_STATUS_WORDS & set(words(query)))
        scores: dict[int, float] = {}
        for term, weight in query_terms(query, self._vocabulary).items():
            for i, score in self._postings.get(term, {}).items():
                scores[i] = scores.get(i, 0.0) + weight * score
        if self._embedding is not None and self._vectors is not None:
            best = max(scores.values(), default=0.0) or 1.0
            # The vocabulary's words join the query's vector too (cross-validation preferred it).
            vector = self._embedding.embed([" ".join([query, *expansions(query, self._vocabulary)])])[0]
            cosines = [sum(map(mul, vector, tool)) for tool in self._vectors]  # unit vectors: dot = cosine
            mix = self._semantic_weight
            scores = {i: (1 - mix) * scores.get(i, 0.0) / best + mix * c for i, c in enumerate(cosines)}
        hits = []
        for i in sorted(scores):  # catalogue order, so that a stable sort keeps it among equal scores
            spec, score = self._specs[i], scores[i]
            if allowed is not None and spec.name not in allowed:
                continue
            if spec.name.endswith("_status") and not status_asked:
                score *= STATUS_PENALTY
            hits.append(Hit(spec, round(score, 4)))
        hits.sort(key=lambda h: -h.score)
        return hits[:limit]


def _idf(n: int, df: int) -> float:
    return math.log(1 + (n - df + 0.5) / (df + 0.5))


def query_terms(query: str, vocabulary: Mapping[str, tuple[str, ...]] = EXPANSIONS) -> dict[str, float]:
    """The query's stems (weight 1) and the vocabulary's expansions of its words and word pairs."""
    terms: dict[str, float] = dict.fromkeys(words(query), 1.0)
    for added in expansions(query, vocabulary):
        for term in words(added):
            terms.setdefault(term, EXPANSION_WEIGHT)
    return terms


def expansions(query: str, vocabulary: Mapping[str, tuple[str, ...]] = EXPANSIONS) -> list[str]:
    """What the vocabulary adds for the query's words, their stems and its word pairs."""
    raw = _WORD.findall(query.lower())
    phrases = dict.fromkeys([*raw, *(stem(w) for w in raw), *(f"{a} {b}" for a, b in pairwise(raw))])
    return [added for phrase in phrases for added in vocabulary.get(phrase, ())]


def embedding_text(spec: ToolSpec) -> str:
    """What a tool's vector is computed from: its name's words, title and first sentence (the whole
    description dilutes the mean of its token vectors; cross-validation preferred the short text)."""
    return f"{spec.name.replace('_', ' ')}. {spec.title}. {summary(spec.description)}"


def _fields(spec: ToolSpec, service_description: str) -> dict[str, list[str]]:
    return {
        "name": words(spec.name),
        "title": words(spec.title),
        "summary": words(summary(spec.description)),
        "description": words(spec.description),
        "parameters": words(" ".join(_parameter_text(spec.input_schema))),
        "service": words(service_description.split("\n\n", 1)[0]),
    }


def _parameter_text(schema: dict[str, Any]) -> Iterable[str]:
    for name, prop in schema.get("properties", {}).items():
        yield name
        if isinstance(prop, dict) and isinstance(prop.get("description"), str):
            yield prop["description"]
