"""Which backends answer a call: live providers, a golden recording, or the fixed sample.

- live: the platform's search providers, fetch pipeline and LLM, when their
  keys are configured; billed.
- golden: no provider keys, but a run recorded from live calls matches the
  arguments; replayed through the same pipeline; never billed, and
  `meta.mode` says so.
- sample: neither; a fixed example of the envelope, with fail_gate
  `sample_path`; never billed.
"""

from __future__ import annotations

import json
from functools import cache
from typing import TYPE_CHECKING, Any

from mcp_platform.outbound.provider_status import provider_status
from research_service.envelope import SAMPLE_PATH, Envelope, FailGate, answer, utc_now
from research_service.live import live_backends
from research_service.recorded import RECORDINGS, find_golden, replay
from research_service.settings import settings

if TYPE_CHECKING:
    from pydantic import BaseModel

    from mcp_platform.runtime.service import ToolOutput
    from research_service.ports import Backends


def _sample_notice() -> tuple[str, str]:
    """The tldr prefix and the first gap of a sample answer, naming the settings that make research live."""
    missing = ", ".join(provider_status(settings())["missing"])
    tldr = (
        "Fixed sample, not an answer to your question (no research provider is configured; "
        f"set {missing} for live research). "
    )
    gap = (
        "sample: no research provider is configured here and no recorded run matches these arguments, so this "
        f"is a fixed example of the answer's shape, not research on your question; nothing was charged or "
        f"reserved. Set {missing} (docs/deploy.md and docs/self-hosting.md: providers) to make research live"
    )
    return tldr, gap


def backends_for(tool: str, arguments: BaseModel) -> Backends | None:
    """Live backends when configured, else a matching golden run, else None (answer with the sample)."""
    live = live_backends()
    if live is not None:
        return live
    run = find_golden(tool, arguments.model_dump())
    return replay(run) if run is not None else None


@cache
def _sample() -> dict[str, Any]:
    return json.loads((RECORDINGS / "sample.json").read_text(encoding="utf-8"))


def sample_answer(extra: dict[str, Any], as_of_hint: str | None = None) -> ToolOutput:
    """The fixed example envelope with the caller's own fields (`extra`); never billed."""
    sample = _sample()
    tldr_prefix, gap = _sample_notice()
    envelope = Envelope(
        tldr=tldr_prefix + sample["tldr"],
        body=sample["body"],
        confidence="unknown",
        sources=sample["sources"],
        claims=sample["claims"],
        gaps=[gap, *sample["gaps"]],
        as_of=as_of_hint or utc_now()[:10],
        mode="sample",
        fail_gate=FailGate(SAMPLE_PATH, retryable=False),
    )
    return answer(envelope, billable_if_passed=False, **extra)
