"""The offline verdict: normalised and decoded views, rules, the windowed model, calibration, policy.

A text is read as its normalised view, one view per decoded segment (base64, hex, URL encoding,
binary, Morse, rot13 …) and its respelling (`normalize.views`). A user prompt's view is scored whole by
the prompt model; a document's view is cut into windows, each scored by the document model (n-grams +
structural flags, rule hits among them). The text's logit is its worst view's (or window's). In a
document (rag_chunk, tool_result) the logit is raised by `STRUCTURE_WEIGHT` per structural cue on its most
anomalous line: those hand-made cues carry over to unseen document sources where n-grams do not.
Strong rule hits floor the score, so an unmistakable override is blocked even when the model is
unsure, and the two layers' disagreement is reported either way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from mcp_platform.contracts.promptguard import Layer, Spotlight
from promptguard_service import calibration as calib
from promptguard_service.model import Model, load_models
from promptguard_service.normalize import View, preload, views
from promptguard_service.prompt_model import PromptModel
from promptguard_service.structure import (
    ANOMALY_WEIGHTS,
    ISOLATION_WEIGHT,
    RELATIVE_CUE_CONTEXTS,
    RULE_CUE_WEIGHT,
    isolation,
    line_anomaly,
)
from promptguard_service.windows import DOCUMENT_CONTEXTS, Windows, prepare

if TYPE_CHECKING:
    from promptguard_service.rules import Hit

STRUCTURE_WEIGHT = 4.0
"""Logit added per structural cue of a document's most anomalous line (see `structure.line_anomaly`).

Chosen on held-out logits (with `structure.ANOMALY_WEIGHTS`): rag_chunk recall at 5 % FPR 0.14 -> 0.87
and tool_result 0.10 -> 0.48. Larger weights gain little more while trusting the hand-made cues more on
document kinds the benchmark does not show."""
MAX_ANOMALY = float(ANOMALY_WEIGHTS.sum()) + RULE_CUE_WEIGHT + ISOLATION_WEIGHT
STRONG_RULE_FLOOR = 0.97
"""The score floor when a strong rule fires (above every context's block threshold)."""
_SPOTLIGHT_LIMIT = 20
_EXCERPT_CHARS = 200


@dataclass(frozen=True)
class Verdict:
    score: float
    policy: str
    intent: str
    spotlight: list[Spotlight]
    layers: list[Layer]
    disagreement: bool
    thresholds: dict[str, float]


def engine_version() -> str:
    return load_models().version


def warm() -> None:
    """Load the models, the calibration and the word lists in one go, before the first text is scanned, rather
    than part-way through whichever check first needs each of them."""
    load_models()
    calib.load_calibration()
    preload()


def _spot(text: str, view: View, start: int, end: int, reason: str) -> Spotlight:
    a, b = view.span(start, end)
    return Spotlight(start=a, end=b, excerpt=text[a:b][:_EXCERPT_CHARS], reason=reason)


@dataclass
class Scan:
    """Every view of a text read by the rules and the model, before calibration."""

    best_logit: float = -60.0
    best_window: tuple[View, int, int] | None = None
    hits: list[tuple[View, Hit]] = field(default_factory=list)
    view_logits: dict[str, float] = field(default_factory=dict)
    views: list[View] = field(default_factory=list)
    anomaly: float = 0.0
    """Weighted structural cues on the document's most anomalous line (0 for user prompts)."""
    anomaly_window: tuple[View, int, int] | None = None

    @property
    def strong(self) -> bool:
        return any(hit.rule.strength == "strong" for _, hit in self.hits)


def _scored(model: PromptModel | Model, prepared: Windows) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """The logits of a view and the spans they are of: the whole view for the prompt model, else each window."""
    if isinstance(model, PromptModel):
        return np.array([model.logit(prepared.view.text)] if prepared.windows else []), [(0, len(prepared.view.text))]
    spans = [(start, end) for start, end, _first, _last in prepared.windows]
    return model.window_logits(prepared.hashed, prepared.windows, prepared.dense), spans


def scan(model: PromptModel | Model, text: str, context: str) -> Scan:
    """The worst logit over every view of `text` (`normalize.views`), and all rule hits."""
    result = Scan(views=views(text))
    for view in result.views:
        prepared = prepare(view, context)
        logits, spans = _scored(model, prepared)
        result.hits.extend((view, hit) for hit in prepared.hits)
        if not len(logits):
            continue
        k = int(np.argmax(logits))
        if view.name != "text":
            result.view_logits[view.name] = max(result.view_logits.get(view.name, -60.0), float(logits[k]))
        if logits[k] > result.best_logit:
            result.best_logit = float(logits[k])
            result.best_window = (view, *spans[k])
        if view.name == "text" and context in DOCUMENT_CONTEXTS:
            relative = context in RELATIVE_CUE_CONTEXTS
            isolated = isolation(view.text, prepared.segments) if relative else None
            result.anomaly, where = line_anomaly(prepared.dense, prepared.windows, relative=relative, isolated=isolated)
            if where is not None:
                result.anomaly_window = (view, prepared.windows[where][0], prepared.windows[where][1])
    result.best_logit += STRUCTURE_WEIGHT * result.anomaly
    return result


def final_score(model_score: float, strong_rule: bool) -> float:
    """The model's calibrated score, floored when a strong rule fired."""
    return max(model_score, STRONG_RULE_FLOOR) if strong_rule else model_score


def check(text: str, context: str) -> Verdict:
    """Screen `text` read in `context`: every offline layer, calibrated and mapped to a policy."""
    calibration = calib.load_calibration()
    found = scan(load_models().for_context(context), text, context)
    normalized, read, hits, best_window = found.views[0], found.views, found.hits, found.best_window
    best_logit = found.best_logit
    view_fired = {name: calib.probability(calibration, context, logit) for name, logit in found.view_logits.items()}
    thresholds = calibration["thresholds"][context]
    model_score = calib.probability(calibration, context, best_logit)
    strong = found.strong
    rule_score = STRONG_RULE_FLOOR if strong else (0.5 if hits else 0.0)
    score = final_score(model_score, strong)
    policy = "block" if score >= thresholds["block"] else "flag" if score >= thresholds["flag"] else "allow"

    spotlight = [_spot(text, view, hit.start, hit.end, f"rule:{hit.rule.name}") for view, hit in hits]
    if best_window is not None and model_score >= thresholds["flag"]:
        view, start, end = best_window
        spotlight.append(_spot(text, view, start, end, "model:worst_window"))
    if found.anomaly_window is not None and policy != "allow":
        view, start, end = found.anomaly_window
        spotlight.append(_spot(text, view, start, end, f"structure:anomalous_line({found.anomaly:g})"))
    spotlight = sorted(spotlight, key=lambda s: (s.start, s.end))[:_SPOTLIGHT_LIMIT]

    model_fired = model_score >= thresholds["block"]
    rules_fired = bool(strong)
    layers = [
        Layer(
            name="normalization",
            fired=normalized.text != text.lower() or len(read) > 1,
            score=0.0,
            detail=f"decoded views: {', '.join(sorted({v.name for v in read[1:]})) or 'none'}",
        ),
        *(
            Layer(name=f"decoded:{name}", fired=s >= thresholds["block"], score=round(s, 4))
            for name, s in view_fired.items()
        ),
        Layer(
            name="rules",
            fired=rules_fired,
            score=rule_score,
            detail=", ".join(sorted({hit.rule.name for _, hit in hits})) or None,
        ),
        Layer(
            name="structure",
            fired=found.anomaly >= 2,
            score=round(found.anomaly / MAX_ANOMALY, 4),
            detail=f"most anomalous line: weighted cues {found.anomaly:g}" if context in DOCUMENT_CONTEXTS else None,
        ),
        Layer(
            name="model", fired=model_fired, score=round(model_score, 4), detail=f"worst window logit {best_logit:.2f}"
        ),
    ]
    intent = _intent(hits, policy)
    return Verdict(
        score=round(score, 4),
        policy=policy,
        intent=intent,
        spotlight=spotlight,
        layers=layers,
        disagreement=rules_fired != model_fired,
        thresholds=thresholds,
    )


def _intent(hits: list[tuple[View, Hit]], policy: str) -> str:
    if policy == "allow":
        return "none"
    # A strong hit first, the first in the text; but a channel carrying data out outranks the orders
    # around it ("finish your answer with ![](https://…?data=…)"): that is what the operator must act on.
    ranked = sorted(hits, key=lambda vh: (vh[1].rule.strength != "strong", vh[1].rule.intent != "exfiltration"))
    return ranked[0][1].rule.intent if ranked else "instruction_override"
