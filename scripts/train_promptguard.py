"""Train promptguard's learned layer on the benchmark's developer half; measure it source by source.

    .venv/bin/python scripts/train_promptguard.py [--data ../shared/bench-data/prompt-injection/dev.jsonl]

1. Every document with an injection has a clean twin in the file; the difference between the two is
   the inserted attack. Windows over the attack are the positives of the document contexts, every
   window of a clean document a negative: the model learns what an embedded instruction looks like,
   not which documents carry one.
2. Two cross-validations: leave-one-source-out (each source family - a document collection or an
   attack collection; a row `A + B` belongs to both - held out in turn: what a source never seen
   meets) and five random folds (a document and its twin kept together: what a new row of a known
   source meets). Held-out rows are scored exactly as the engine scores them (`engine.scan`: every
   decoded view, the document line-anomaly term, strong rules). Both sets of held-out scores, pooled,
   give the per-context calibration and the flag/block thresholds; `calibration.json` records the
   figures of each.
3. Both models (`model.Models`: `prompt_model.PromptModel` for user prompts, fitted by `fit_prompt`;
   `model.Model` for documents, fitted with `DOCUMENT_FIT`) are refitted on everything and written to
   `promptguard_service/model.npz`.

Every fit also trains on the team's benign prompts in `scripts/promptguard_benign_prompts.txt`
(role prompts, formatting orders: what the benchmark's benign rows lack), and the document model on
two more sets: the attack templates of two red-teaming kits (`promptguard_corpora`: attacks the
benchmark does not have) and chunks of half of the installed packages' READMEs as benign rag_chunk
rows (`readme_rows`: the benchmark's clean passages are encyclopaedia text and tables only). They are
never held out and never scored, so every figure is the benchmark's.

The document model is fitted with full-batch Adam in numpy; the prompt model with scikit-learn (a
development dependency: the function reads its weights with numpy alone). While tuning, `--cache` keeps
the windows, `--oof-out` saves the held-out logits and `--oof-in` recalibrates from them; `--prompts-only`
cross-validates the prompt model alone (seconds, not the 40 minutes of the documents' folds) and replaces
the user_prompt part of `calibration.json`.
"""

from __future__ import annotations

import argparse
import collections
import difflib
import hashlib
import json
import math
import pickle
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "functions" / "services" / "promptguard"), str(ROOT / "bench")]

from promptguard_corpora import extra_rows
from promptguard_documents import package_documents, trains_model
from reference import reference_path

from promptguard_service import calibration as calib
from promptguard_service import prompt_model, rules
from promptguard_service.engine import final_score, scan
from promptguard_service.features import DIM
from promptguard_service.model import KINDS, WEIGHTS_PATH, Model, Models, kind_of, load_models
from promptguard_service.normalize import normalize, views
from promptguard_service.prompt_model import PromptModel
from promptguard_service.structure import DENSE_NAMES
from promptguard_service.windows import DOCUMENT_CONTEXTS, prepare

DEFAULT_DATA = reference_path("bench-data", "prompt-injection", "dev.jsonl")
EXTRA_BENIGN = ROOT / "scripts" / "promptguard_benign_prompts.txt"
"""Benign prompts written by the team (see the file's header): always trained on, never scored."""
CONTEXTS = ("user_prompt", "rag_chunk", "tool_result")
FAMILIES = {
    "bipia": "BIPIA",
    "xquad": "XQuAD",
    "article-extraction": "article-extraction",
    "cyberseceval": "CyberSecEval",
    "notinject": "NotInject",
    "s-labs": "S-Labs",
    "wildguard": "WildGuardMix",
    "deepset": "deepset",
    "neuralchemy": "neuralchemy",
}


def families(source: str) -> set[str]:
    """The source families of a row: `A + B` belongs to A's and B's."""
    out = set()
    for part in source.split(" + "):
        key = next((name for prefix, name in FAMILIES.items() if part.lower().startswith(prefix)), part)
        out.add(key)
    return out


# ---------------------------------------------------------------- twins: where the attack is


def _grams(text: str) -> set[str]:
    return {text[i : i + 12] for i in range(0, max(0, len(text) - 12), 7)}


def twins(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """For each injected document, its clean twin (the same document without the attack)."""
    clean = [r for r in rows if r["context"] in DOCUMENT_CONTEXTS and r["label"] == "benign"]
    index: dict[str, list[int]] = collections.defaultdict(list)
    for j, row in enumerate(clean):
        for gram in _grams(row["text"]):
            index[gram].append(j)
    found: dict[str, dict[str, Any]] = {}
    for row in rows:
        if row["context"] not in DOCUMENT_CONTEXTS or row["label"] != "injection":
            continue
        text = row["text"]
        votes: collections.Counter[int] = collections.Counter()
        for i in range(0, max(0, len(text) - 12), 3):
            votes.update(index.get(text[i : i + 12], ()))
        if votes:
            found[row["id"]] = clean[votes.most_common(1)[0][0]]
    return found


def attack_spans(rows: list[dict[str, Any]]) -> dict[str, tuple[int, int]]:
    """For each injected document, the span of its inserted attack, widened to whole lines."""
    by_id = {r["id"]: r for r in rows}
    spans: dict[str, tuple[int, int]] = {}
    for row_id, twin in twins(rows).items():
        text = by_id[row_id]["text"]
        matcher = difflib.SequenceMatcher(None, twin["text"], text, autojunk=False)
        inserted = [(j1, j2) for op, _i1, _i2, j1, j2 in matcher.get_opcodes() if op != "equal" and j2 - j1 > 5]
        if not inserted:
            continue
        start, end = max(inserted, key=lambda span: span[1] - span[0])
        while start > 0 and text[start - 1] != "\n" and start > end - 600:
            start -= 1
        while end < len(text) and text[end] != "\n" and end < start + 900:
            end += 1
        spans[row_id] = (start, end)
    return spans


# ---------------------------------------------------------------- training units


@dataclass
class Units:
    """Training windows, flattened: n-gram indices with their row (unit) and value, dense flags."""

    index: list[np.ndarray] = field(default_factory=list)
    value: list[np.ndarray] = field(default_factory=list)
    dense: list[np.ndarray] = field(default_factory=list)
    label: list[float] = field(default_factory=list)
    weight: list[float] = field(default_factory=list)
    row: list[int] = field(default_factory=list)
    documents_only_from: int | None = None
    """The first row (`readme_rows`, then the kits') that trains the document model only, if any."""

    @property
    def row_count(self) -> int:
        """Rows the windows come from: the benchmark's, `extra_benign_rows`, `readme_rows`, the kits' `extra_rows`."""
        return max(self.row) + 1


def build_units(rows: list[dict[str, Any]], spans: dict[str, tuple[int, int]]) -> Units:
    units = Units()
    for r, row in enumerate(rows):
        view = normalize(row["text"])
        prepared = prepare(view, row["context"])
        origin = np.array(view.origin)
        hashed = prepared.hashed.by_position()
        chosen: list[tuple[int, float, float]] = []  # (window number, label, weight)
        wins = prepared.windows
        if row["context"] == "user_prompt":
            label = 1.0 if row["label"] == "injection" else 0.0
            chosen = [(k, label, 1.0 / len(wins)) for k in range(len(wins))]
            if label == 0.0:  # every window of a benign prompt must stay low on its own
                chosen = [(k, 0.0, 0.5 / len(wins) + 0.5 / math.sqrt(len(wins))) for k in range(len(wins))]
        elif row["label"] == "benign":
            chosen = [(k, 0.0, 1.0) for k in range(len(wins))]
        elif row["id"] in spans:
            a_orig, b_orig = spans[row["id"]]
            a = int(np.searchsorted(origin, a_orig, side="left"))
            b = int(np.searchsorted(origin, b_orig, side="left"))
            for k, (ws, we, _f, _l) in enumerate(wins):
                overlap = min(we, b) - max(ws, a)
                if overlap > 0 and (overlap >= 0.5 * (we - ws) or overlap >= 0.9 * (b - a)):
                    chosen.append((k, 1.0, 1.0))
        for k, label, weight in chosen:
            ws, we = wins[k][0], wins[k][1]
            lo, hi = np.searchsorted(hashed.position, [ws, we], side="left")
            n = max(int(hi - lo), 1)
            units.index.append(hashed.index[lo:hi].astype(np.int32))
            units.value.append(np.full(hi - lo, 1.0 / math.sqrt(n), dtype=np.float32))
            units.dense.append(prepared.dense[k])
            units.label.append(label)
            units.weight.append(weight)
            units.row.append(r)
    return units


def extra_benign_rows(path: Path = EXTRA_BENIGN) -> list[dict[str, Any]]:
    """The team's benign user prompts as training rows (hard negatives)."""
    lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()]
    texts = [line for line in lines if line and not line.startswith("#")]
    return [
        {"id": f"extra-{i}", "text": text, "label": "benign", "context": "user_prompt", "category": "hard_negative"}
        for i, text in enumerate(texts)
    ]


def readme_rows() -> list[dict[str, Any]]:
    """Benign rag_chunk rows: README chunks of the installed packages `trains_model` picks. The benchmark
    has no technical documents, and its threshold search blocked 39 % of the other half's chunks; those
    stay `bench/promptguard_documents.py`'s texts."""
    texts = [text for name, chunks in package_documents(6).items() if trains_model(name) for text in chunks]
    return [
        {"id": f"readme-{i}", "text": text, "label": "benign", "context": "rag_chunk", "category": "benign_document"}
        for i, text in enumerate(texts)
    ]


@dataclass(frozen=True)
class Fit:
    iterations: int
    """Full-batch Adam steps."""
    l2: float
    """Ridge penalty on the weights."""


DOCUMENT_FIT = Fit(iterations=60, l2=2e-5)
"""How closely the document model fits, chosen on held-out figures: a closer fit (200 steps, l2 5e-6) costs
rag_chunk recall at 5 % FPR 0.889 -> 0.836 on attack sources never seen. On documents the character
model of `fit_prompt` is far worse (hidden half 0.40 / 0.16 against 0.85 / 0.87), so they keep this one."""
PROMPT_C = 4.0
"""The prompt model's inverse regularisation, chosen on both validations (user_prompt recall at 5 % FPR,
model alone, random folds / leave-one-source-out): C 1 0.919 / 0.114, C 4 0.942 / 0.160; sublinear term
frequencies at C 4 0.948 / 0.153 (with the strong rules 0.959 / 0.574, the better on known sources)."""


def _prompt_matrix(rows: list[dict[str, Any]]) -> Any:
    """Term counts of each row's normalised text over the prompt model's buckets (a sparse matrix)."""
    from scipy import sparse

    counts, buckets, pointers = [], [], [0]
    for row in rows:
        index, count = np.unique(prompt_model.char_wb_buckets(normalize(row["text"]).text), return_counts=True)
        buckets.append(index)
        counts.append(count)
        pointers.append(pointers[-1] + len(index))
    shape = (len(rows), prompt_model.DIM)
    return sparse.csr_matrix((np.concatenate(counts).astype(float), np.concatenate(buckets), pointers), shape=shape)


def fit_prompt(rows: list[dict[str, Any]]) -> PromptModel:
    """TF-IDF (sublinear term frequencies) and logistic regression over the user prompts of `rows`."""
    from sklearn.feature_extraction.text import TfidfTransformer
    from sklearn.linear_model import LogisticRegression

    prompts = [row for row in rows if row["context"] == "user_prompt"]
    counts = _prompt_matrix(prompts)
    tfidf = TfidfTransformer(sublinear_tf=True).fit(counts)
    labels = np.array([row["label"] == "injection" for row in prompts], dtype=int)
    regression = LogisticRegression(C=PROMPT_C, max_iter=3000).fit(tfidf.transform(counts), labels)
    print(f"    fitted the prompt model on {len(prompts)} prompts", flush=True)
    return PromptModel(
        tfidf.idf_.astype(np.float32), regression.coef_[0].astype(np.float32), float(regression.intercept_[0])
    )


def fit(units: Units, keep: np.ndarray, *, iterations: int, l2: float) -> Model:
    """Weighted logistic regression on the units whose row is in `keep`, full-batch Adam."""
    rows = np.array(units.row)
    chosen = np.flatnonzero(keep[rows])
    index = np.concatenate([units.index[u] for u in chosen])
    value = np.concatenate([units.value[u] for u in chosen])
    owner = np.repeat(np.arange(len(chosen)), [len(units.index[u]) for u in chosen])
    dense = np.vstack([units.dense[u] for u in chosen]).astype(np.float64)
    y = np.array(units.label)[chosen]
    w = np.array(units.weight)[chosen]
    doc = dense[:, DENSE_NAMES.index("doc_context")] > 0
    for is_doc in (False, True):  # balance the classes within prompts and within documents
        part = doc == is_doc
        pos, neg = w[part & (y == 1)].sum(), w[part & (y == 0)].sum()
        if pos and neg:
            w[part & (y == 1)] *= (pos + neg) / (2 * pos)
            w[part & (y == 0)] *= (pos + neg) / (2 * neg)
    w /= w.sum()
    params = [np.zeros(DIM), np.zeros(dense.shape[1]), np.zeros(1)]
    moments = [(np.zeros_like(p), np.zeros_like(p)) for p in params]
    lr, beta1, beta2 = 0.1, 0.9, 0.999
    for step in range(1, iterations + 1):
        weights, dense_w, bias = params
        z = bias[0] + np.bincount(owner, weights=weights[index] * value, minlength=len(chosen)) + dense @ dense_w
        g = w * (1.0 / (1.0 + np.exp(-z)) - y)
        grads = [
            np.bincount(index, weights=g[owner] * value, minlength=DIM) + l2 * weights,
            dense.T @ g + l2 * dense_w,
            np.array([g.sum()]),
        ]
        for param, grad, (first, second) in zip(params, grads, moments, strict=True):
            first[:] = beta1 * first + (1 - beta1) * grad
            second[:] = beta2 * second + (1 - beta2) * grad * grad
            param[:] = param - lr * (first / (1 - beta1**step)) / (np.sqrt(second / (1 - beta2**step)) + 1e-8)
    weights, dense_w, bias = params
    print(f"    fitted {len(chosen)} windows, {len(index)} features", flush=True)
    return Model(weights.astype(np.float32), dense_w.astype(np.float32), float(bias[0]))


def fit_models(
    trained: list[dict[str, Any]], units: Units | None, keep: np.ndarray, kinds: tuple[str, ...] = KINDS
) -> dict[str, PromptModel | Model]:
    """The models of `kinds` fitted on the kept rows: the prompt model on the user prompts of `trained`
    (the benchmark's and the team's rows), the document model on every window."""
    models: dict[str, PromptModel | Model] = {}
    if "prompt" in kinds:
        models["prompt"] = fit_prompt([row for row, kept in zip(trained, keep, strict=False) if kept])
    if "document" in kinds and units is not None:
        models["document"] = fit(units, keep, iterations=DOCUMENT_FIT.iterations, l2=DOCUMENT_FIT.l2)
    return models


def model_version(models: dict[str, PromptModel | Model]) -> str:
    """The engine version a fit ships as: its day and a digest of the weights, so that two fits of one day
    (a refit on more data) report different versions."""
    digest = hashlib.sha256()
    for kind in sorted(models):
        for array in vars(models[kind]).values():
            digest.update(np.asarray(array, dtype=np.float64).tobytes())
    return f"pg-{time.strftime('%Y%m%d')}-cwb{prompt_model.DIM.bit_length() - 1}b-{digest.hexdigest()[:8]}"


def text_logits(models: dict[str, PromptModel | Model], rows: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray]:
    """Each text's worst-window logit over all its views (as the engine reads it) and whether a strong rule fired."""
    logits, strong = np.zeros(len(rows)), np.zeros(len(rows), dtype=bool)
    for i, row in enumerate(rows):
        found = scan(models[kind_of(row["context"])], row["text"], row["context"])
        logits[i], strong[i] = found.best_logit, found.strong
    return logits, strong


def strong_flags(rows: list[dict[str, Any]]) -> np.ndarray:
    """Whether a strong rule fires on any view of each text (the rules' part of `scan`, without the model)."""
    return np.array(
        [
            any(
                hit.rule.strength == "strong"
                for view in views(r["text"])
                for hit in rules.match(view.text, document=r["context"] in DOCUMENT_CONTEXTS)
            )
            for r in rows
        ],
        dtype=bool,
    )


# ---------------------------------------------------------------- metrics


def recall_at_fpr(scores: np.ndarray, labels: np.ndarray, fpr: float = 0.05) -> float:
    """The benchmark's metric (a): recall strictly above the (k+1)-th highest benign score."""
    benign = np.sort(scores[labels == 0])[::-1]
    if not len(benign) or not (labels == 1).any():
        return float("nan")
    k = math.floor(fpr * len(benign))
    threshold = benign[min(k, len(benign) - 1)]
    return float((scores[labels == 1] > threshold).mean())


def _figure(value: float) -> float | None:
    """A rounded figure, or None where the rows to compute it are missing (JSON has no NaN)."""
    return None if math.isnan(value) else round(value, 4)


def _share(flags: np.ndarray) -> float:
    return float(flags.mean()) if len(flags) else float("nan")


def report(rows: list[dict[str, Any]], scores: np.ndarray, thresholds: dict[str, dict[str, float]]) -> dict[str, Any]:
    labels = np.array([1 if r["label"] == "injection" else 0 for r in rows])
    contexts = np.array([r["context"] for r in rows])
    block = np.array([scores[i] >= thresholds[r["context"]]["block"] for i, r in enumerate(rows)])
    out: dict[str, Any] = {}
    for context in (*CONTEXTS, "all"):
        part = contexts == context if context != "all" else np.ones(len(rows), dtype=bool)
        y, b = labels[part], block[part]
        recall = recall_at_fpr(scores[part], y) if context != "all" else float("nan")
        out[context] = {
            "recall_at_5pct_fpr": _figure(recall),
            "balanced_accuracy": _figure((_share(b[y == 1]) + 1 - _share(b[y == 0])) / 2),
            "recall_at_block": _figure(_share(b[y == 1])),
            "fpr_at_block": _figure(_share(b[y == 0])),
        }
    hard = np.array([r["category"] == "hard_negative" for r in rows])
    out["over_defence"] = _figure(1 - _share(block[hard]))
    return out


def folds(rows: list[dict[str, Any]], scheme: str) -> dict[str, np.ndarray]:
    """The held-out rows of each fold, by name.

    `source`: leave one source family out (what a source never seen in training will meet).
    `random`: five folds drawn by row id, every source in every fold (what a new row of a known
    source will meet); a document and its injected twin stay in one fold, so the twin's clean text
    never teaches the model that document.
    """
    if scheme == "source":
        row_families = [families(r["source"]) for r in rows]
        return {
            family: np.array([family in fs for fs in row_families])
            for family in sorted({f for fs in row_families for f in fs})
        }
    twin_of = twins(rows)
    group = [twin_of[r["id"]]["id"] if r["id"] in twin_of else r["id"] for r in rows]
    fold = np.array([int(hashlib.sha256(g.encode()).hexdigest(), 16) % 5 for g in group])
    return {f"fold{k}": fold == k for k in range(5)}


SCHEMES = ("source", "random")
"""What each held-out figure is: `source` for sources never seen in training, `random` for new rows of known ones."""


def held_out_logits(
    rows: list[dict[str, Any]], trained: list[dict[str, Any]], units: Units | None, started: float, scheme: str
) -> np.ndarray:
    """Every row's logit from the models fitted without its fold (`folds(rows, scheme)`); `units` may be
    None when every row is a user prompt."""
    oof = np.zeros(len(rows))
    # rows past the benchmark's (team's, READMEs' and kits') always kept
    keep = np.ones(units.row_count if units is not None else len(trained), dtype=bool)
    for name, held in folds(rows, scheme).items():
        held_rows = [rows[i] for i in np.flatnonzero(held)]
        kinds = tuple(sorted({kind_of(r["context"]) for r in held_rows}))  # only the models the fold needs
        keep[: len(rows)] = ~held
        models = fit_models(trained, units, keep, kinds)
        # A row of two families is scored in each of their folds; it keeps its worst-case (lower
        # for injections, higher for benign) held-out score.
        logits, _ = text_logits(models, held_rows)
        for i, logit in zip(np.flatnonzero(held), logits, strict=True):
            if oof[i] == 0:
                oof[i] = logit
            else:
                oof[i] = min(oof[i], logit) if rows[i]["label"] == "injection" else max(oof[i], logit)
        labels = np.array([r["label"] == "injection" for r in held_rows])
        means = [f"{logits[labels == flag].mean():.2f}" if (labels == flag).any() else "-" for flag in (True, False)]
        print(
            f"  {scheme} fold {name}: {len(held_rows)} rows, mean logit injection {means[0]} benign {means[1]}"
            f" ({time.time() - started:.0f} s)"
        )
    return oof


def calibrate(
    rows: list[dict[str, Any]], oofs: dict[str, np.ndarray], strong: np.ndarray, contexts: tuple[str, ...] = CONTEXTS
) -> dict[str, Any]:
    """Platt scaling and thresholds fitted on the pooled held-out logits of every scheme, and the figures.

    The hidden half mixes rows of known sources with sources never seen: thresholds fitted on unseen
    sources alone block too little of what the model knows, on known ones alone too much of what it
    does not. Pooling both (leave-one-source-out 0.7816 -> 0.7825, random folds 0.864 -> 0.878 balanced
    accuracy, over-defence >= 0.92 on each) serves the mix.
    """
    pooled_rows = [row for _ in oofs for row in rows]
    calibration = calib.fit_calibration(pooled_rows, np.concatenate(list(oofs.values())), contexts)
    for scheme, oof in oofs.items():
        probabilities = np.array(
            [
                final_score(calib.probability(calibration, r["context"], s), bool(f))
                for r, s, f in zip(rows, oof, strong, strict=True)
            ]
        )
        key = "held_out" if scheme == "source" else "held_out_known_sources"
        calibration[key] = report(rows, probabilities, calibration["thresholds"])
        if scheme == "source":
            row_families = [families(r["source"]) for r in rows]
            calibration["held_out_by_family"] = {
                family: report(
                    [rows[i] for i in range(len(rows)) if family in row_families[i]],
                    probabilities[[family in fs for fs in row_families]],
                    calibration["thresholds"],
                )
                for family in sorted({f for fs in row_families for f in fs})
            }
    return calibration


def _pooled(figures: dict[str, Any], rows: list[dict[str, Any]]) -> dict[str, float | None]:
    """The `all` figures of a report from its contexts' figures, each weighted by its rows."""
    hits = positives = false = negatives = 0.0
    for context in CONTEXTS:
        part = [r for r in rows if r["context"] == context]
        pos, neg = sum(r["label"] == "injection" for r in part), sum(r["label"] == "benign" for r in part)
        if pos:
            hits, positives = hits + figures[context]["recall_at_block"] * pos, positives + pos
        if neg:
            false, negatives = false + figures[context]["fpr_at_block"] * neg, negatives + neg
    recall = hits / positives if positives else float("nan")
    fpr = false / negatives if negatives else float("nan")
    return {
        "recall_at_5pct_fpr": None,
        "balanced_accuracy": _figure((recall + 1 - fpr) / 2),
        "recall_at_block": _figure(recall),
        "fpr_at_block": _figure(fpr),
    }


def merge_prompt_calibration(
    shipped: dict[str, Any], prompts: dict[str, Any], rows: list[dict[str, Any]]
) -> dict[str, Any]:
    """`shipped` with its user_prompt calibration and figures replaced by `prompts` (fitted on the user
    prompts of `rows` alone) and its `all` figures pooled again; the documents' part is unchanged."""
    merged = json.loads(json.dumps(shipped))
    for key in ("platt", "thresholds"):
        merged[key]["user_prompt"] = prompts[key]["user_prompt"]
    row_families = [families(r["source"]) for r in rows]
    for key in ("held_out", "held_out_known_sources"):
        merged[key]["user_prompt"] = prompts[key]["user_prompt"]
        merged[key]["over_defence"] = prompts[key]["over_defence"]
        merged[key]["all"] = _pooled(merged[key], rows)
    for family, figures in merged["held_out_by_family"].items():
        if family in prompts["held_out_by_family"]:
            figures["user_prompt"] = prompts["held_out_by_family"][family]["user_prompt"]
            figures["over_defence"] = prompts["held_out_by_family"][family]["over_defence"]
            figures["all"] = _pooled(figures, [r for r, fs in zip(rows, row_families, strict=True) if family in fs])
    return merged


def document_units(rows: list[dict[str, Any]], trained: list[dict[str, Any]], cache: Path | None) -> Units:
    """The training windows of every row (kept in `cache` while tuning, if given)."""
    if cache and cache.exists():
        _spans, units = pickle.loads(cache.read_bytes())
        return units  # type: ignore[no-any-return]
    kit_rows, kit_spans = extra_rows(rows)
    spans = attack_spans(rows) | kit_spans
    units = build_units(trained + readme_rows() + kit_rows, spans)
    units.documents_only_from = len(trained)  # see `promptguard_corpora`: they cost the prompt model
    if cache:
        cache.write_bytes(pickle.dumps((spans, units)))
    return units


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--cache", type=Path, help="keep the windows here between runs (while tuning)")
    parser.add_argument("--oof-out", type=Path, help="write the held-out logits of each scheme here")
    parser.add_argument("--oof-in", type=Path, help="only recalibrate the shipped model from an --oof-out file")
    parser.add_argument("--no-cv", action="store_true", help="skip cross-validation (reuse calibration.json)")
    parser.add_argument(
        "--cv",
        choices=(*SCHEMES, "both"),
        default="both",
        help="folds: leave one source family out, 5 random folds, or both (the default: thresholds from both);"
        " without `source` the figures are printed and nothing is written",
    )
    parser.add_argument(
        "--prompts-only",
        action="store_true",
        help="cross-validate and refit the prompt model alone; the shipped document model and its calibration stay",
    )
    return parser.parse_args()


def cross_validate(
    args: argparse.Namespace,
    rows: list[dict[str, Any]],
    trained: list[dict[str, Any]],
    units: Units | None,
    every_row: list[dict[str, Any]],
) -> dict[str, Any] | None:
    """The calibration and held-out figures; None when nothing is to be written (a measurement only, or a
    recalibration already saved). `every_row` is the benchmark's, `rows` those cross-validated."""
    started = time.time()
    if args.oof_in:  # recalibrate the shipped model from saved held-out logits; no refit
        oofs = {scheme: np.array(logits) for scheme, logits in json.loads(args.oof_in.read_text()).items()}
    else:
        schemes = SCHEMES if args.cv == "both" else (args.cv,)
        oofs = {scheme: held_out_logits(rows, trained, units, started, scheme) for scheme in schemes}
        if args.oof_out:
            args.oof_out.write_text(json.dumps({scheme: oof.tolist() for scheme, oof in oofs.items()}))
    # Strong rules only floor the score, and `rules.EXTRA_STRONG` are no model features: saved
    # logits stay valid when those change, so the flags always come from the current rules.
    contexts = ("user_prompt",) if args.prompts_only else CONTEXTS
    calibration = calibrate(rows, oofs, strong_flags(rows), contexts)
    if args.prompts_only:
        calibration = merge_prompt_calibration(calib.load_calibration(), calibration, every_row)
    figures = ("thresholds", "platt", "held_out", "held_out_known_sources")
    if "source" not in oofs or args.oof_in:  # without `source`, a measurement only: shipped thresholds
        if args.oof_in:  # must have seen unseen sources
            calibration["version"] = calib.load_calibration()["version"]
            calib.save_calibration(calibration)
        print(json.dumps({k: calibration[k] for k in figures if k in calibration}, indent=1))
        return None
    return calibration


def main() -> None:
    args = arguments()
    started = time.time()
    every_row = [json.loads(line) for line in args.data.open(encoding="utf-8")]
    rows = [row for row in every_row if row["context"] == "user_prompt" or not args.prompts_only]
    trained = rows + extra_benign_rows()
    units = None if args.prompts_only else document_units(rows, trained, args.cache)
    print(f"{len(rows)} rows, {len(units.label) if units else 0} document windows ({time.time() - started:.0f} s)")
    calibration = calib.load_calibration() if args.no_cv else cross_validate(args, rows, trained, units, every_row)
    if calibration is None:
        return
    fitted = fit_models(trained, units, np.ones(units.row_count if units else len(trained), dtype=bool))
    fitted.setdefault("document", load_models().document)  # --prompts-only: the shipped one
    version = model_version(fitted)
    prompt, document = fitted["prompt"], fitted["document"]
    assert isinstance(prompt, PromptModel) and isinstance(document, Model)
    Models(prompt, document, version).save(WEIGHTS_PATH)
    calibration["version"] = version
    calib.save_calibration(calibration)
    print(json.dumps({k: calibration[k] for k in ("version", "thresholds", "platt", "held_out")}, indent=1))
    print(f"document dense weights: {dict(zip(DENSE_NAMES, np.round(document.dense, 2).tolist(), strict=True))}")
    print(f"wrote {WEIGHTS_PATH} ({WEIGHTS_PATH.stat().st_size} bytes) in {time.time() - started:.0f} s")


if __name__ == "__main__":
    main()
