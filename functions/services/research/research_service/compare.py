"""compare_options (preview): one search per option, one draft of the option x criterion table, gated cell by cell."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from research_service.budget import CAPS, Budget, for_task
from research_service.drafting import COMPARE_SYSTEM, CompareDraft, draft
from research_service.envelope import QUOTE_GATE_FAILED, Envelope, FailGate, answer, claim_entries, utc_now
from research_service.errors import require_preview
from research_service.evidence import backed_sources
from research_service.modes import backends_for, sample_answer
from research_service.quote_gate import DraftClaim, gate
from research_service.reading import pick_urls, read_pages, search_all
from research_service.sources import confidence

if TYPE_CHECKING:
    from collections.abc import Callable

    from mcp_platform.contracts.research import CompareOptionsInput
    from mcp_platform.runtime.service import ServiceContext, ToolOutput
    from research_service.drafting import CellDraft
    from research_service.ports import Backends

TOOL = "compare_options"
PAGES_PER_OPTION = 2


def compare_options(arguments: CompareOptionsInput, ctx: ServiceContext) -> ToolOutput:
    require_preview("compare_options", "call research_brief once per option instead")
    backends = backends_for(TOOL, arguments)
    if backends is None:
        return sample_answer({})
    return run_compare(backends, arguments, ctx.seconds_left(), in_task=ctx.in_task, stop=ctx.cancelled)


def run_compare(
    backends: Backends,
    arguments: CompareOptionsInput,
    seconds_left: float,
    *,
    in_task: bool = False,
    stop: Callable[[], bool] | None = None,
) -> ToolOutput:
    options = arguments.options
    caps = replace(
        CAPS["standard"],
        searches=1,
        pages=min(PAGES_PER_OPTION * len(options), CAPS["deep"].pages),
        min_claims=len(options),
    )
    caps = for_task(caps) if in_task else caps
    budget = Budget(caps, seconds_left, stop=stop)
    gaps: list[str] = []
    urls: list[str] = []
    for option in options:
        hits = search_all(backends.searcher, budget, [f"{option} {arguments.question}"], gaps)
        urls.extend(url for url in pick_urls(hits, PAGES_PER_OPTION) if url not in urls)
    reading = read_pages(backends.fetcher, budget, urls)
    gaps.extend(reading.gaps)
    parsed: CompareDraft | None = None
    if reading.pages:
        task = (
            f"Question: {arguments.question}\nOptions: {'; '.join(options)}\nCriteria: {'; '.join(arguments.criteria)}"
        )
        parsed, why = draft(backends.llm, budget, COMPARE_SYSTEM, task, pages=reading.pages, shape=CompareDraft)
        if why:
            gaps.append(why)
    cells: dict[DraftClaim, CellDraft] = {cell.to_draft(): cell for cell in parsed.cells} if parsed else {}
    result = gate(list(cells), reading.texts)
    gaps.extend(result.gaps())
    table = [_row(cells[kept]) for kept in result.kept]
    gaps.extend(_missing(arguments, table))
    covered = {row["option"] for row in table}
    passed = len(covered) >= caps.min_claims
    sources = backed_sources(result.kept, reading.pages)
    envelope = Envelope(
        tldr=parsed.tldr
        if passed and parsed
        else f"No comparison: verified cells cover {len(covered)} of {len(options)} options.",
        body={"question": arguments.question, "options": options, "criteria": arguments.criteria, "table": table},
        confidence=confidence((s["url"], s["type"]) for s in sources) if passed else "unknown",
        sources=sources,
        claims=claim_entries(result.kept),
        gaps=gaps,
        as_of=utc_now()[:10],
        mode=backends.mode,
        fail_gate=None if passed else FailGate(QUOTE_GATE_FAILED, retryable=True),
    )
    return answer(envelope, billable_if_passed=False)


def _row(cell: CellDraft) -> dict[str, Any]:
    return {
        "option": cell.option,
        "criterion": cell.criterion,
        "value": cell.value,
        "quote": cell.quote,
        "source_url": cell.source_url,
    }


def _missing(arguments: CompareOptionsInput, table: list[dict[str, Any]]) -> list[str]:
    have = {(row["option"].casefold(), row["criterion"].casefold()) for row in table}
    return [
        f"no verified answer: {option} — {criterion}"
        for option in arguments.options
        for criterion in arguments.criteria
        if (option.casefold(), criterion.casefold()) not in have
    ]
