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

from research_service.envelope import SAMPLE_PATH, Envelope, FailGate, answer, utc_now
from research_service.live import live_backends
from research_service.recorded import RECORDINGS, find_golden, replay

if TYPE_CHECKING:
    from pydantic import BaseModel

    from mcp_platform.service import ToolOutput
    from research_service.ports import Backends

SAMPLE_GAP = (
    "sample: no research provider is configured here and no recorded run matches these arguments, so this "
    "is a fixed example of the answer's shape, not research on your question; nothing was charged"
)


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
    envelope = Envelope(
        tldr=sample["tldr"],
        body=sample["body"],
        confidence="unknown",
        sources=sample["sources"],
        claims=sample["claims"],
        gaps=[SAMPLE_GAP, *sample["gaps"]],
        as_of=as_of_hint or utc_now()[:10],
        mode="sample",
        fail_gate=FailGate(SAMPLE_PATH, retryable=False),
    )
    return answer(envelope, billable_if_passed=False, **extra)
