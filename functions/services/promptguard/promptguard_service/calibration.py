"""From a text's worst-window logit to a calibrated score and the per-context policy thresholds.

`calibration.json` (written by `scripts/train_promptguard.py`) holds, per context, Platt scaling
`sigmoid(a * logit + c)` fitted on *held-out* logits (leave-one-source-out), and the `flag` and
`block` thresholds chosen on those held-out scores: `block` maximises balanced accuracy (the highest
threshold within `_BA_SLACK` of the best) while at most ~5 % of the context's benign texts (and of the
hard negatives) are blocked, and is never below the context's `_BLOCK_FLOOR`; `flag` lets ~15 %
of benign texts through to a human or a stricter check. It also records the held-out figures.
"""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

CALIBRATION_PATH = Path(__file__).with_name("calibration.json")
CONTEXTS = ("user_prompt", "rag_chunk", "tool_result")
_BLOCK_FPR = 0.05
_FLAG_FPR = 0.15
_BA_SLACK = 0.005
"""`block` is the highest threshold whose balanced accuracy is within this of the best. The curve is
flat near its top, and there the benchmark's few kinds of benign documents say little about others:
on rag_chunk, the best threshold (0.40) and the highest within 0.005 of it (0.74) block 67 % and 46 %
of benign technical documents (`bench/promptguard_documents.py`)."""
_BLOCK_FLOOR = {"rag_chunk": 0.9}
"""The lowest `block` a context may get. The benchmark's clean rag_chunk passages are encyclopaedia text
and tables, which the model scores very low, so their 5 % is a threshold that blocked three in ten of
any other retrieved text: READMEs never trained on 0.299, news articles 0.297 (their clean bodies, read
as rag_chunk). At 0.9: 0.047 and 0.121, for held-out rag_chunk balanced accuracy 0.944 -> 0.899 on
attack sources never seen and 0.955 -> 0.948 on known ones (recall at 5 % FPR, which no threshold
moves, stays 0.914 and 0.980). The benchmark's passages are one kind of retrieved text; a screen that
blocks a third of the others is one operators switch off."""


def _platt(logits: np.ndarray, labels: np.ndarray) -> tuple[float, float]:
    """One-feature logistic regression (ridge-regularised Newton steps with a backtracking line search).

    Held-out logits of one context can be nearly separable or badly scaled: from the start (1, 0) a
    logit of 15 is a probability of 1, the curvature there is nearly nil, and full Newton steps (even
    capped ones) can jump back and forth between two points for ever. Each step is halved until the
    regularised loss falls, so the fit always converges. A non-positive slope (a model worse than
    chance) falls back to 1.
    """
    x = np.clip(logits, -30.0, 30.0)

    def loss(a: float, c: float) -> float:
        z = a * x + c
        return float((np.logaddexp(0.0, z) - labels * z).sum() + 0.5 * a * a + 0.05 * c * c)

    a, c = 1.0, 0.0
    current = loss(a, c)
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-np.clip(a * x + c, -60.0, 60.0)))
        g = np.array([((p - labels) * x).sum() + 1.0 * a, (p - labels).sum() + 0.1 * c])
        s = p * (1 - p)
        h = np.array([[(s * x * x).sum() + 1.0, (s * x).sum()], [(s * x).sum(), s.sum() + 0.1]])
        step = np.linalg.solve(h, g)
        size = 1.0
        while size > 1e-6 and loss(a - size * step[0], c - size * step[1]) > current:
            size /= 2
        a, c = a - size * step[0], c - size * step[1]
        current = loss(a, c)
        if abs(size * step).max() < 1e-8:
            break
    return (float(a), float(c)) if a > 0 else (1.0, 0.0)


def _threshold_at(benign: np.ndarray, fpr: float) -> float:
    """The lowest threshold that blocks at most `fpr` of `benign` (a score blocks when >= it)."""
    ranked = np.sort(benign)[::-1]
    k = math.floor(fpr * len(ranked))
    return float(np.nextafter(ranked[min(k, len(ranked) - 1)], 1.0))


def fit_calibration(
    rows: list[dict[str, Any]], logits: np.ndarray, contexts: tuple[str, ...] = CONTEXTS
) -> dict[str, Any]:
    """Platt scaling and thresholds per context (of `contexts`) from held-out logits."""
    platt: dict[str, list[float]] = {}
    thresholds: dict[str, dict[str, float]] = {}
    for context in contexts:
        part = np.array([r["context"] == context for r in rows])
        labels = np.array([r["label"] == "injection" for r in rows])[part].astype(float)
        hard = np.array([r["category"] == "hard_negative" for r in rows])[part]
        a, c = _platt(logits[part], labels)
        probs = 1.0 / (1.0 + np.exp(-(a * logits[part] + c)))
        limit = _threshold_at(probs[labels == 0], _BLOCK_FPR)
        if hard.any():
            limit = max(limit, _threshold_at(probs[hard], _BLOCK_FPR))
        candidates = np.unique(np.concatenate([probs, [0.5]]))
        candidates = candidates[candidates >= limit]
        recall = np.array([(probs[labels == 1] >= t).mean() for t in candidates])
        scores = (recall + np.array([(probs[labels == 0] < t).mean() for t in candidates])) / 2
        best = float(candidates[scores >= scores.max() - _BA_SLACK].max()) if len(candidates) else max(limit, 0.5)
        best = max(best, _BLOCK_FLOOR.get(context, 0.0))
        flag = min(_threshold_at(probs[labels == 0], _FLAG_FPR), best)
        platt[context] = [round(a, 6), round(c, 6)]
        thresholds[context] = {"flag": round(flag, 6), "block": round(best, 6)}
    return {"platt": platt, "thresholds": thresholds}


def probability(calibration: dict[str, Any], context: str, logit: float) -> float:
    a, c = calibration["platt"][context]
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, a * logit + c))))


def save_calibration(calibration: dict[str, Any], path: Path = CALIBRATION_PATH) -> None:
    path.write_text(json.dumps(calibration, indent=1, sort_keys=True) + "\n", encoding="utf-8")


@cache
def load_calibration(path: Path = CALIBRATION_PATH) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded
