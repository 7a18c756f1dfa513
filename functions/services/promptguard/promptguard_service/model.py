"""Layer 3: the learned models, trained by `scripts/train_promptguard.py` on the benchmark's developer half.

User prompts are read by `prompt_model.PromptModel` (TF-IDF over word-bounded character n-grams, the whole
text at once). Documents (`rag_chunk`, `tool_result`) are read by `Model` below: logistic regression over
hashed n-grams and structural flags, trained on every window, a document judged by its worst window. Each
kind got the model that held out better on both validations (`FITS` in the training script). The weights
ship in `model.npz` beside this module (float16, about 1 MB). A document window's logit is

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

from promptguard_service import prompt_model
from promptguard_service.features import DIM, Hashed
from promptguard_service.prompt_model import PromptModel
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
    prompt: PromptModel
    document: Model
    version: str

    def for_context(self, context: str) -> PromptModel | Model:
        return self.document if kind_of(context) == "document" else self.prompt

    def save(self, path: Path) -> None:
        np.savez_compressed(
            path,
            version=np.array(self.version),
            prompt_idf=self.prompt.idf.astype(np.float16),
            prompt_weights=self.prompt.weights.astype(np.float16),
            prompt_bias=np.array([self.prompt.bias]),
            document_weights=self.document.weights.astype(np.float16),
            document_dense=self.document.dense.astype(np.float32),
            document_bias=np.array([self.document.bias]),
        )


def _array(data: np.lib.npyio.NpzFile, name: str, size: int) -> npt.NDArray[np.float32]:
    array = data[name].astype(np.float32)
    if array.shape != (size,):
        raise ValueError(f"model.npz: expected {size} {name}, found {array.shape}")
    return array


@cache
def load_models(path: Path = WEIGHTS_PATH) -> Models:
    """The shipped models, loaded once per container."""
    with np.load(path) as data:
        prompt = PromptModel(
            _array(data, "prompt_idf", prompt_model.DIM),
            _array(data, "prompt_weights", prompt_model.DIM),
            float(data["prompt_bias"][0]),
        )
        document = Model(
            _array(data, "document_weights", DIM),
            data["document_dense"].astype(np.float32),
            float(data["document_bias"][0]),
        )
        return Models(prompt, document, str(data["version"]))
