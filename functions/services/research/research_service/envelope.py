"""The seed 004 envelope: every research answer is built here, and priced here.

Builders return plain dicts in the seed's field names. Whether an answer is
billed is decided once, in `answer()`: `meta.billable` and the platform's
`waive_charge` always agree, so a gated or sample answer can never be charged.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from mcp_platform.contracts.research import SCHEMA_VERSION
from mcp_platform.runtime.service import ToolOutput
from research_service.sources import publisher

if TYPE_CHECKING:
    from research_service.ports import Page
    from research_service.quote_gate import DraftClaim


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class FailGate:
    reason: str
    retryable: bool

    def to_wire(self) -> dict[str, Any]:
        return {"reason": self.reason, "retryable": self.retryable}


QUOTE_GATE_FAILED = "quote_gate_failed"
SAMPLE_PATH = "sample_path"


def source_entry(page: Page, kind: str, supports: str) -> dict[str, Any]:
    """One seed `source`: the page as read, its type and what it supports."""
    retrieved = page.retrieved_at or utc_now()
    return {
        "title": page.title or page.final_url,
        "url": page.final_url,
        "publisher": publisher(page.final_url),
        "accessed": retrieved[:10],
        "type": kind,
        "supports": supports,
        "source": "cached" if page.cached else "live",
        "retrieved_at": retrieved,
    }


def claim_entries(claims: list[DraftClaim]) -> list[dict[str, str]]:
    return [{"claim": c.claim, "quote": c.quote, "source_url": c.source_url} for c in claims]


@dataclass
class Envelope:
    """The shared envelope of seed 004; tool-specific fields go in `extra`."""

    tldr: str
    body: Any
    confidence: str
    sources: list[dict[str, Any]]
    claims: list[dict[str, str]]
    gaps: list[str]
    as_of: str
    mode: str
    fail_gate: FailGate | None = None

    def to_wire(self, billable: bool, extra: dict[str, Any]) -> dict[str, Any]:
        wire: dict[str, Any] = {
            "tldr": self.tldr,
            "body": self.body,
            "confidence": self.confidence,
            "sources": self.sources,
            "claims": self.claims,
            "gaps": self.gaps,
            "as_of": self.as_of,
            "retrieved_at": utc_now(),
            "schema_version": SCHEMA_VERSION,
            "meta": {"mode": self.mode, "billable": billable},
        }
        if self.fail_gate is not None:
            wire["fail_gate"] = self.fail_gate.to_wire()
        return {**wire, **extra}


def answer(envelope: Envelope, billable_if_passed: bool, **extra: Any) -> ToolOutput:
    """The tool result: billed only for a live answer that passed its gates and whose tool is billable.

    Golden and sample answers replay or show recorded work, not research on
    the caller's question, so they are never billed either.
    """
    billable = billable_if_passed and envelope.fail_gate is None and envelope.mode == "live"
    return ToolOutput(structured=envelope.to_wire(billable, extra), waive_charge=not billable)
