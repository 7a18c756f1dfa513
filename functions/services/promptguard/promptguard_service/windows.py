"""A view of the text cut into windows, with everything the rules and the model need per window."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from promptguard_service import features, rules, structure

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from promptguard_service.normalize import View

DOCUMENT_CONTEXTS = frozenset({"rag_chunk", "tool_result"})


@dataclass(frozen=True)
class Windows:
    view: View
    hashed: features.Hashed
    segments: list[tuple[int, int]]
    windows: list[tuple[int, int, int, int]]
    hits: list[rules.Hit]
    dense: npt.NDArray[np.float32]


def prepare(view: View, context: str) -> Windows:
    """Hash, segment, window and rule-match one view; `context` switches the document-only flags."""
    segs = features.segments(view.text)
    wins = features.windows(segs)
    hits = rules.match(view.text, document=context in DOCUMENT_CONTEXTS)
    dense = structure.dense_matrix(view.text, segs, wins, hits, context in DOCUMENT_CONTEXTS)
    return Windows(view, features.hash_text(view.text), segs, wins, hits, dense)
