"""source_lookup: audit one URL, or find a source for one claim, and give a verdict.

Verdicts: found (a gated quote answers the ask), not_found (HTTP 404/410, or
the pages do not address it), moved (the URL redirects elsewhere), conflicting
(a gated quote contradicts the claim), blocked (robots.txt, the SSRF guard or
HTTP 401/403/451), unaudited (nothing could be checked). blocked and unaudited
answers are not billed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from research_service.budget import CAPS, MIN_STEP_SECONDS, Budget
from research_service.drafting import LOOKUP_SYSTEM, LookupDraft, draft
from research_service.envelope import QUOTE_GATE_FAILED, Envelope, FailGate, answer, claim_entries, utc_now
from research_service.evidence import backed_sources, claims_body
from research_service.modes import backends_for, sample_answer
from research_service.ports import FetchBlockedError, FetchFailedError, Page
from research_service.quote_gate import gate
from research_service.reading import Reading, pick_urls, read_pages, search_all
from research_service.sources import confidence

if TYPE_CHECKING:
    from mcp_platform.contracts.research import SourceLookupInput
    from mcp_platform.runtime.service import ServiceContext, ToolOutput
    from research_service.ports import Backends

TOOL = "source_lookup"
NOT_BILLED = frozenset({"blocked", "unaudited"})
_GONE = frozenset({404, 410})
_REFUSED = frozenset({401, 403, 451})


@dataclass
class Audit:
    verdict: str
    http_status: int | None
    reading: Reading = field(default_factory=Reading)
    draft: LookupDraft | None = None
    kept: list[Any] = field(default_factory=list)
    gate_failed: bool = False


def source_lookup(arguments: SourceLookupInput, ctx: ServiceContext) -> ToolOutput:
    extra = {"claim_or_url": arguments.claim_or_url, "ask": arguments.ask}
    backends = backends_for(TOOL, arguments)
    if backends is None:
        return sample_answer({**extra, "verdict": "unaudited", "http_status": None})
    budget = Budget(CAPS["quick"], ctx.seconds_left())
    target = arguments.claim_or_url.strip()
    is_url = target.lower().startswith(("http://", "https://"))
    audit = (
        audit_url(backends, budget, target, arguments.ask)
        if is_url
        else audit_claim(backends, budget, target, arguments.ask)
    )
    return _answer(audit, backends.mode, extra)


def audit_url(backends: Backends, budget: Budget, url: str, ask: str) -> Audit:
    """Fetch the page itself; its HTTP outcome decides before any model reads it."""
    try:
        page = backends.fetcher.fetch(url, budget.step_timeout() or MIN_STEP_SECONDS)
    except FetchBlockedError as exc:
        return Audit("blocked", None, Reading(gaps=[f"not read ({exc}): {url}"]))
    except FetchFailedError as exc:
        return Audit("unaudited", exc.status, Reading(gaps=[f"not read ({exc}): {url}"]))
    status = page.redirects[0] if page.moved else page.status
    if page.status in _GONE:
        return Audit("not_found", page.status, Reading(gaps=[f"HTTP {page.status}: the page is gone"]))
    if page.status in _REFUSED:
        return Audit("blocked", page.status, Reading(gaps=[f"HTTP {page.status}: the site refused the request"]))
    if page.status >= 400 or not page.text.strip():
        return Audit("unaudited", page.status, Reading(gaps=[f"HTTP {page.status}: no text to audit"]))
    audit = _judge(backends, budget, f"Page to audit: {url}\nQuestion: {ask}", Reading(pages=[page]))
    if page.moved:
        audit.verdict = "moved"
        audit.reading.gaps.insert(0, f"moved: {url} redirects (HTTP {status}) to {page.final_url}")
    audit.http_status = status
    return audit


def audit_claim(backends: Backends, budget: Budget, claim: str, ask: str) -> Audit:
    """Search for the claim, read the best pages, and let gated quotes decide."""
    gaps: list[str] = []
    hits = search_all(backends.searcher, budget, [claim], gaps)
    reading = read_pages(backends.fetcher, budget, pick_urls(hits, budget.caps.pages))
    reading.gaps[:0] = gaps
    if not reading.pages:
        reading.gaps.append("no page about the claim could be read")
        return Audit("unaudited", None, reading)
    audit = _judge(backends, budget, f"Claim: {claim}\nQuestion: {ask}", reading)
    statuses = {page.final_url: page.status for page in reading.pages}
    audit.http_status = statuses[audit.kept[0].source_url] if audit.kept else None
    return audit


def _judge(backends: Backends, budget: Budget, task: str, reading: Reading) -> Audit:
    parsed, why = draft(backends.llm, budget, LOOKUP_SYSTEM, task, pages=reading.pages, shape=LookupDraft)
    if parsed is None:
        reading.gaps.append(why or "no model reply")
        return Audit("unaudited", None, reading)
    drafts = [claim.to_draft() for claim in parsed.claims]
    result = gate(drafts, reading.texts)
    reading.gaps.extend([*result.gaps(), *parsed.gaps])
    stances = {claim.stance for claim in result.kept}
    if drafts and not result.kept:
        verdict = "unaudited"
    elif "contradicts" in stances:
        verdict = "conflicting"
    else:
        verdict = "found" if stances else "not_found"
    return Audit(verdict, None, reading, parsed, result.kept, gate_failed=bool(drafts) and not result.kept)


def _answer(audit: Audit, mode: str, extra: dict[str, Any]) -> ToolOutput:
    pages: list[Page] = audit.reading.pages
    sources = backed_sources(audit.kept, pages)
    summary = audit.draft.answer if audit.draft and audit.draft.answer else ""
    envelope = Envelope(
        tldr=f"{audit.verdict}: {summary}" if summary else f"{audit.verdict} (see gaps)",
        body=claims_body(audit.kept, sources),
        confidence=confidence((s["url"], s["type"]) for s in sources),
        sources=sources,
        claims=claim_entries(audit.kept),
        gaps=audit.reading.gaps,
        as_of=utc_now()[:10],
        mode=mode,
        fail_gate=FailGate(QUOTE_GATE_FAILED, retryable=True) if audit.gate_failed else None,
    )
    wire = {**extra, "verdict": audit.verdict, "http_status": audit.http_status}
    return answer(envelope, billable_if_passed=audit.verdict not in NOT_BILLED, **wire)
