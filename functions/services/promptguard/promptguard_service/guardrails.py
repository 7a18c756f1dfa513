"""Layer 4: Amazon Bedrock Guardrails (ApplyGuardrail, prompt-attack filter) as a second opinion.

Runs only when `PROMPTGUARD_GUARDRAIL_ID` names a guardrail. The call is capped (short timeouts,
no retries) and any failure is reported, never raised: the caller then answers with the offline
verdict and `degraded: true`. The text goes to Bedrock (the operator chose that by configuring the
guardrail) but never to a log.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from mcp_platform.storage import aws
from promptguard_service.settings import settings

MAX_GUARDRAIL_CHARS = 25_000
"""ApplyGuardrail bills per 1,000 characters; longer texts are sent as their head (the offline layers read all)."""
_CONFIDENCE = {"NONE": 0.0, "LOW": 0.35, "MEDIUM": 0.65, "HIGH": 0.92}


@dataclass(frozen=True)
class Opinion:
    configured: bool
    available: bool
    fired: bool = False
    score: float = 0.0
    detail: str = ""


def configured() -> bool:
    return bool(settings().promptguard_guardrail_id.strip())


@cache
def _client() -> Any:
    from botocore.config import Config  # botocore's client machinery: only where a guardrail is configured

    config = Config(connect_timeout=1, read_timeout=2, retries={"total_max_attempts": 1})
    return aws.configured_client("bedrock-runtime", config)


def second_opinion(text: str, client: Any = None) -> Opinion:
    """Bedrock's prompt-attack verdict on `text`, or why there is none."""
    guardrail = settings().promptguard_guardrail_id.strip()
    if not guardrail:
        return Opinion(configured=False, available=False, detail="not configured")
    try:
        response = (client or _client()).apply_guardrail(
            guardrailIdentifier=guardrail,
            guardrailVersion=settings().promptguard_guardrail_version.strip() or "DRAFT",
            source="INPUT",
            content=[{"text": {"text": text[:MAX_GUARDRAIL_CHARS], "qualifiers": ["guard_content"]}}],
        )
    except ClientError as exc:
        code = exc.response.get("Error", {}).get("Code", "ClientError")
        return Opinion(configured=True, available=False, detail=f"unavailable ({code})")
    except BotoCoreError as exc:
        return Opinion(configured=True, available=False, detail=f"unavailable ({exc.__class__.__name__})")
    score = 0.0
    for assessment in response.get("assessments", []):
        for item in assessment.get("contentPolicy", {}).get("filters", []):
            if item.get("type") == "PROMPT_ATTACK" and item.get("action") in ("BLOCKED", "NONE", None):
                if item.get("detected", item.get("action") == "BLOCKED"):
                    score = max(score, _CONFIDENCE.get(str(item.get("confidence", "HIGH")), 0.92))
    fired = response.get("action") == "GUARDRAIL_INTERVENED" and score > 0
    return Opinion(
        configured=True,
        available=True,
        fired=fired,
        score=score,
        detail="prompt attack detected" if fired else "no prompt attack",
    )
