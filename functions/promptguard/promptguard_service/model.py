"""Layer 3: the learned models, logistic regression over hashed n-grams and structural flags.

Two models of the same form, both trained by `scripts/train_promptguard.py` on every window of the
benchmark's developer half: one reads user prompts, one reads documents (`rag_chunk`, `tool_result`).
They differ in how closely they fit: held out, a closer fit serves prompts of known sources (random
folds: user_prompt recall at 5 % FPR 0.88 -> 0.91) but hurts documents carrying attacks of a kind
never seen (leave-one-source-out: rag_chunk 0.89 -> 0.84), so documents get the looser one. The
weights ship in `model.npz` beside this module (float16 n-gram weights, < 1 MB). A window's logit is

    bias + (sum of the weights of its n-gram features) / sqrt(their count) + dense flags . dense weights

and a text's logit is its worst (highest) window's. Pure numpy: the text is hashed once and each
window is two lookups in cumulative sums (per character offset). The sums are exact, whatever their
order: a float16 weight is a multiple of 2^-24 below 8 in size, so a 100,000-character text's
(about 340,000 features) stay below 2^46 such units, within float64's 53 bits.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from promptguard_service.features import DIM, Hashed
from promptguard_service.windows import DOCUMENT_CONTEXTS

WEIGHTS_PATH = Path(__file__).with_name("model.npz")
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Model:
    weights: npt.NDArray[np.float32]
    dense: npt.NDArray[np.float32]
    bias: float
    _dense_64: FloatArray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_dense_64", self.dense.astype(np.float64))

    def window_logits(
        self, hashed: Hashed, wins: list[tuple[int, int, int, int]], dense: npt.NDArray[np.float32]
    ) -> FloatArray:
        """The logit of every window (see the module docstring)."""
        if not wins:
            return np.zeros(0)
        length = max(end for _start, end, _first, _last in wins)
        per_offset = np.bincount(hashed.position, weights=self.weights[hashed.index], minlength=length)
        sums = np.concatenate([[0.0], np.cumsum(per_offset)])
        counts = np.concatenate([[0], np.cumsum(np.bincount(hashed.position, minlength=length))])
        starts = np.array([w[0] for w in wins])
        ends = np.array([w[1] for w in wins])
        return (
            self.bias
            + (sums[ends] - sums[starts]) / np.sqrt(np.maximum(counts[ends] - counts[starts], 1))
            + dense.astype(np.float64) @ self._dense_64
        )


KINDS = ("prompt", "document")
"""The two models: `prompt` reads user prompts, `document` reads rag_chunk and tool_result texts."""


def kind_of(context: str) -> str:
    return "document" if context in DOCUMENT_CONTEXTS else "prompt"


@dataclass(frozen=True)
class Models:
    by_kind: dict[str, Model]
    version: str

    def for_context(self, context: str) -> Model:
        return self.by_kind[kind_of(context)]

    def save(self, path: Path) -> None:
        arrays: dict[str, npt.NDArray[np.generic]] = {"version": np.array(self.version)}
        for kind, model in self.by_kind.items():
            arrays[f"{kind}_weights"] = model.weights.astype(np.float16)
            arrays[f"{kind}_dense"] = model.dense.astype(np.float32)
            arrays[f"{kind}_bias"] = np.array([model.bias])
        np.savez_compressed(path, **arrays)


@cache
def load_models(path: Path = WEIGHTS_PATH) -> Models:
    """The shipped models, loaded once per container."""
    with np.load(path) as data:
        by_kind = {}
        for kind in KINDS:
            weights = data[f"{kind}_weights"].astype(np.float32)
            if weights.shape != (DIM,):
                raise ValueError(f"{path.name}: expected {DIM} {kind} weights, found {weights.shape}")
            by_kind[kind] = Model(weights, data[f"{kind}_dense"].astype(np.float32), float(data[f"{kind}_bias"][0]))
        return Models(by_kind, str(data["version"]))
