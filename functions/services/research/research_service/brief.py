"""research_brief: plan → search → read → draft → quote gate → envelope."""

from __future__ import annotations

from typing import TYPE_CHECKING

from research_service.budget import CAPS, Budget, for_task
from research_service.drafting import BRIEF_SYSTEM, BriefDraft, draft
from research_service.envelope import QUOTE_GATE_FAILED, Envelope, FailGate, answer, claim_entries, utc_now
from research_service.errors import require_preview
from research_service.evidence import backed_sources, claims_body
from research_service.modes import backends_for, sample_answer
from research_service.quote_gate import gate
from research_service.reading import pick_urls, read_pages, search_all
from research_service.sources import confidence

if TYPE_CHECKING:
    from collections.abc import Callable

    from mcp_platform.contracts.research import ResearchBriefInput
    from mcp_platform.runtime.service import ServiceContext, ToolOutput
    from research_service.ports import Backends

TOOL = "research_brief"


def research_brief(arguments: ResearchBriefInput, ctx: ServiceContext) -> ToolOutput:
    if arguments.depth == "deep":
        require_preview("depth: deep", "use depth quick or standard")
    extra = {"query": arguments.query, "depth": arguments.depth}
    backends = backends_for(TOOL, arguments)
    if backends is None:
        return sample_answer(extra, arguments.as_of_hint)
    return run_brief(backends, arguments, ctx.seconds_left(), in_task=ctx.in_task, stop=ctx.cancelled)


def plan_queries(query: str, as_of_hint: str | None) -> list[str]:
    """The searches to run, most direct first; the depth's cap decides how many are used."""
    plan = [query]
    if as_of_hint:
        plan.append(f"{query} {as_of_hint}")
    plan.append(f"{query} official source")
    plan.append(f"{query} report data")
    return plan


def run_brief(
    backends: Backends,
    arguments: ResearchBriefInput,
    seconds_left: float,
    *,
    in_task: bool = False,
    stop: Callable[[], bool] | None = None,
) -> ToolOutput:
    caps = for_task(CAPS[arguments.depth]) if in_task else CAPS[arguments.depth]
    budget = Budget(caps, seconds_left, stop=stop)
    gaps: list[str] = []
    hits = search_all(backends.searcher, budget, plan_queries(arguments.query, arguments.as_of_hint), gaps)
    if not hits:
        gaps.append("the searches found no pages")
    reading = read_pages(backends.fetcher, budget, pick_urls(hits, caps.pages))
    gaps.extend(reading.gaps)
    parsed: BriefDraft | None = None
    if reading.pages:
        task = f"Question: {arguments.query}\nAnswer as of: {arguments.as_of_hint or 'today'}"
        parsed, why = draft(backends.llm, budget, BRIEF_SYSTEM, task, pages=reading.pages, shape=BriefDraft)
        if why:
            gaps.append(why)
    drafts = [claim.to_draft() for claim in parsed.claims] if parsed else []
    result = gate(drafts, reading.texts)
    gaps.extend(result.gaps())
    if parsed:
        gaps.extend(parsed.gaps)
    notes = {note.url: note for note in parsed.sources} if parsed else {}
    sources = backed_sources(result.kept, reading.pages, notes)
    passed = len(result.kept) >= caps.min_claims
    envelope = Envelope(
        tldr=parsed.tldr if passed and parsed else _gated_tldr(len(result.kept), len(drafts), caps.min_claims),
        body=claims_body(result.kept, sources),
        confidence=confidence((s["url"], s["type"]) for s in sources) if passed else "unknown",
        sources=sources,
        claims=claim_entries(result.kept),
        gaps=gaps,
        as_of=arguments.as_of_hint or utc_now()[:10],
        mode=backends.mode,
        fail_gate=None if passed else FailGate(QUOTE_GATE_FAILED, retryable=True),
    )
    return answer(envelope, billable_if_passed=arguments.depth != "deep", query=arguments.query, depth=arguments.depth)


def _gated_tldr(kept: int, drafted: int, needed: int) -> str:
    return (
        f"No brief: {kept} of {drafted} drafted claims survived the quote gate and {needed} are needed. "
        "The verified claims are listed; nothing was charged. A retry may read other pages."
    )
