"""promptguard_check: the offline verdict, the optional Bedrock second opinion, the audit record."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcp_platform.contracts.promptguard import CheckInput, CheckOutput, Layer
from mcp_platform.runtime.observability import logger
from promptguard_service import engine, guardrails

if TYPE_CHECKING:
    from mcp_platform.runtime.service import ServiceContext


def promptguard_check(args: CheckInput, ctx: ServiceContext) -> dict[str, Any]:
    verdict = engine.check(args.text, args.context)
    opinion = guardrails.second_opinion(args.text)
    score, policy, intent = verdict.score, verdict.policy, verdict.intent
    if opinion.fired and opinion.score > score:
        # Bedrock can only raise the verdict: a second opinion never clears what the offline layers found.
        score = opinion.score
        policy = "block" if score >= verdict.thresholds["block"] else "flag"
        intent = intent if intent != "none" else "instruction_override"
    layers = [
        *verdict.layers,
        Layer(name="bedrock_guardrails", fired=opinion.fired, score=round(opinion.score, 4), detail=opinion.detail),
    ]
    degraded = opinion.configured and not opinion.available
    # The audit record: who asked and what was decided, never the text.
    logger.info(
        "promptguard check",
        extra={
            "account_id": ctx.account_id,
            "session_id": args.session_id,
            "locale": args.locale,
            "context": args.context,
            "chars": len(args.text),
            "policy": policy,
            "score": score,
            "intent": intent,
            "degraded": degraded,
        },
    )
    return CheckOutput(
        injection=policy == "block",
        score=score,
        policy=policy,  # type: ignore[arg-type]
        intent=intent,  # type: ignore[arg-type]
        spotlight=verdict.spotlight,
        layers=layers,
        disagreement=verdict.disagreement,
        degraded=degraded,
        context=args.context,
        thresholds=verdict.thresholds,
        engine_version=engine.engine_version(),
    ).model_dump(mode="json", exclude_none=True)


engine.warm()  # with this module, on the service's first check (app.py imports it then): all of it at once
