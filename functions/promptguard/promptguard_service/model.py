"""Layer 3: the learned model, logistic regression over hashed n-grams and structural flags.

Trained by `scripts/train_promptguard.py` on the benchmark's developer half; the weights ship in
`model.npz` beside this module (float16 n-gram weights, < 1 MB). A window's logit is

    bias + (sum of the weights of its n-gram features) / sqrt(their count) + dense flags . dense weights

and a text's logit is its worst (highest) window's. Pure numpy: the text is hashed once and each
window is two lookups in cumulative sums.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from promptguard_service.features import DIM, Hashed

WEIGHTS_PATH = Path(__file__).with_name("model.npz")
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Model:
    weights: npt.NDArray[np.float32]
    dense: npt.NDArray[np.float32]
    bias: float
    version: str

    def window_logits(
        self, hashed: Hashed, wins: list[tuple[int, int, int, int]], dense: npt.NDArray[np.float32]
    ) -> FloatArray:
        """The logit of every window (see the module docstring)."""
        if not wins:
            return np.zeros(0)
        contributions = np.concatenate([[0.0], np.cumsum(self.weights[hashed.index], dtype=np.float64)])
        starts = np.searchsorted(hashed.position, [w[0] for w in wins], side="left")
        ends = np.searchsorted(hashed.position, [w[1] for w in wins], side="left")
        counts = np.maximum(ends - starts, 1)
        sums = contributions[ends] - contributions[starts]
        return self.bias + sums / np.sqrt(counts) + dense.astype(np.float64) @ self.dense.astype(np.float64)

    def save(self, path: Path) -> None:
        np.savez_compressed(
            path,
            weights=self.weights.astype(np.float16),
            dense=self.dense.astype(np.float32),
            bias=np.array([self.bias]),
            version=np.array(self.version),
        )


@cache
def load_model(path: Path = WEIGHTS_PATH) -> Model:
    """The shipped model, loaded once per container."""
    with np.load(path) as data:
        weights = data["weights"].astype(np.float32)
        if weights.shape != (DIM,):
            raise ValueError(f"{path.name}: expected {DIM} weights, found {weights.shape}")
        return Model(weights, data["dense"].astype(np.float32), float(data["bias"][0]), str(data["version"]))
