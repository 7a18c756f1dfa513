"""The offline verdict: normalised and decoded views, rules, the windowed model, calibration, policy.

A text is read as its normalised view plus one view per decoded segment (base64, hex, URL
encoding, rot13). Every view is cut into windows; a window's logit comes from the model (n-grams +
structural flags, rule hits among them); the text's logit is its worst window's, over all views.
Strong rule hits floor the score, so an unmistakable override is blocked even when the model is
unsure, and the two layers' disagreement is reported either way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from mcp_platform.contracts.promptguard import Layer, Spotlight
from promptguard_service import calibration as calib
from promptguard_service.model import load_model
from promptguard_service.normalize import View, decoded_views, normalize
from promptguard_service.windows import prepare

if TYPE_CHECKING:
    from promptguard_service.rules import Hit

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
    return str(load_model().version)


def _spot(text: str, view: View, start: int, end: int, reason: str) -> Spotlight:
    a, b = view.span(start, end)
    return Spotlight(start=a, end=b, excerpt=text[a:b][:_EXCERPT_CHARS], reason=reason)


def check(text: str, context: str) -> Verdict:
    """Screen `text` read in `context`: every offline layer, calibrated and mapped to a policy."""
    model = load_model()
    calibration = calib.load_calibration()
    normalized = normalize(text)
    views = [normalized, *decoded_views(text)]
    best_logit = -np.inf
    best_window: tuple[View, int, int] | None = None
    hits: list[tuple[View, Hit]] = []
    view_fired: dict[str, float] = {}
    for view in views:
        prepared = prepare(view, context)
        logits = model.window_logits(prepared.hashed, prepared.windows, prepared.dense)
        hits.extend((view, hit) for hit in prepared.hits)
        if not len(logits):
            continue
        k = int(np.argmax(logits))
        if view.name != "text":
            decoded_score = calib.probability(calibration, context, logits[k])
            view_fired[view.name] = max(view_fired.get(view.name, 0.0), decoded_score)
        if logits[k] > best_logit:
            best_logit = float(logits[k])
            best_window = (view, prepared.windows[k][0], prepared.windows[k][1])
    thresholds = calibration["thresholds"][context]
    model_score = calib.probability(calibration, context, best_logit if np.isfinite(best_logit) else -60.0)
    strong = [(view, hit) for view, hit in hits if hit.rule.strength == "strong"]
    rule_score = STRONG_RULE_FLOOR if strong else (0.5 if hits else 0.0)
    score = max(model_score, STRONG_RULE_FLOOR) if strong else model_score
    policy = "block" if score >= thresholds["block"] else "flag" if score >= thresholds["flag"] else "allow"

    spotlight = [_spot(text, view, hit.start, hit.end, f"rule:{hit.rule.name}") for view, hit in hits]
    if best_window is not None and model_score >= thresholds["flag"]:
        view, start, end = best_window
        spotlight.append(_spot(text, view, start, end, "model:worst_window"))
    spotlight = sorted(spotlight, key=lambda s: (s.start, s.end))[:_SPOTLIGHT_LIMIT]

    model_fired = model_score >= thresholds["block"]
    rules_fired = bool(strong)
    layers = [
        Layer(
            name="normalization",
            fired=normalized.text != text.lower() or len(views) > 1,
            score=0.0,
            detail=f"decoded views: {', '.join(sorted({v.name for v in views[1:]})) or 'none'}",
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
    ranked = sorted(hits, key=lambda vh: vh[1].rule.strength != "strong")
    return ranked[0][1].rule.intent if ranked else "instruction_override"
