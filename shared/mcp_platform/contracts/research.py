"""research: quote-gated research briefs, source checks and the credits card (seed 004).

Seed 004 is a JSON Schema document and binding: it ships verbatim beside this
module (`research_seed_004.json`) and every output schema published here is
one of its definitions with the `$ref`s inlined, so an MCP client validates
`structuredContent` against exactly the seed.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from mcp_platform.catalogue.registry import Annotations, ToolInput, ToolSpec

SEED_FILE = Path(__file__).with_name("research_seed_004.json")
SCHEMA_VERSION = "2026-09-14"

Depth = Literal["quick", "standard", "deep"]
DEPTH_PRICES: dict[str, int] = {"quick": 25, "standard": 60, "deep": 0}
"""Credits per live brief (1 credit = USD 0.01); deep is a free preview. Seed 004's meter `lite` is `quick`."""
LOOKUP_PRICE = DEPTH_PRICES["quick"]
"""A source lookup costs what a quick brief does: one search or page, one LLM pass."""


@cache
def seed() -> dict[str, Any]:
    """The seed 004 document, parsed."""
    document: dict[str, Any] = json.loads(SEED_FILE.read_text(encoding="utf-8"))
    return document


def seed_schema(definition: str) -> dict[str, Any]:
    """One seed definition as a self-contained JSON Schema (every `#/definitions/…` inlined).

    Examples:
        >>> seed_schema("creditsResponse")["required"]
        ['schema_version', 'packs', 'meters_usd', 'fail_usd']
    """
    definitions = seed()["definitions"]
    schema = _inline(definitions[definition], definitions)
    # MCP requires an object outputSchema; the seed's allOf definitions only imply it.
    return {"type": "object", **schema}


def _inline(node: Any, definitions: dict[str, Any]) -> Any:
    if isinstance(node, list):
        return [_inline(item, definitions) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/definitions/"):
        rest = {k: v for k, v in node.items() if k != "$ref"}
        return {**_inline(definitions[ref.removeprefix("#/definitions/")], definitions), **rest}
    return {key: _inline(value, definitions) for key, value in node.items()}


class ResearchBriefInput(ToolInput):
    query: str = Field(min_length=3, max_length=500, description="The research question, in plain words (not a URL).")
    depth: Depth = Field(
        description="quick: up to 3 pages, 25 credits. standard: up to 6 pages, 60 credits. "
        "deep: preview only (ENABLE_PREVIEW_TOOLS=1), up to 10 pages, free; otherwise error preview_required."
    )
    as_of_hint: str | None = Field(
        default=None,
        max_length=40,
        description="The date or period the answer should hold for, e.g. '2026-06' or 'Q2 2026'; "
        "reported back as as_of.",
    )


class SourceLookupInput(ToolInput):
    claim_or_url: str = Field(
        min_length=3,
        max_length=2000,
        description="Either an http(s) URL to audit, or a claim to find a source for.",
    )
    ask: str = Field(
        min_length=1,
        max_length=500,
        description="What to check on that page or for that claim, e.g. 'does it state the 2025 revenue?'.",
    )


class CompareOptionsInput(ToolInput):
    options: list[str] = Field(
        min_length=2, max_length=6, description="The options to compare (2-6 names, each 1-200 characters)."
    )
    question: str = Field(min_length=3, max_length=500, description="The decision the comparison should inform.")
    criteria: list[str] = Field(
        min_length=1, max_length=8, description="What to compare the options on (1-8 criteria)."
    )


class CreditsInput(ToolInput):
    pass


_ENVELOPE_NOTE = (
    "Answers in the research envelope: tldr, body, confidence (high|medium|low|unknown), sources, claims "
    "(each with a verbatim quote that was found in the fetched source text), gaps, as_of, schema_version, "
    "meta {mode: live|golden|sample, billable}. When too few claims survive the quote gate the result "
    "carries fail_gate {reason: quote_gate_failed, retryable} and costs nothing."
)

_NO_PROVIDER_NOTE = (
    "Without a search provider and an LLM configured, the answer is a recorded run (meta.mode golden) or a "
    "fixed sample that is not about your question (meta.mode sample), free and never reserved; `credits` "
    "says which mode this deployment is in and which settings make it live."
)

_WEB = Annotations(read_only=True, idempotent=False, open_world=True)
"""Research reads the open web; the same question may get a different answer later."""


def _tool(name: str, title: str, description: str, input_model: type[BaseModel], output: str, **kw: Any) -> ToolSpec:
    """A research ToolSpec whose outputSchema is the seed definition `output`."""
    return ToolSpec(
        name=name,
        service="research",
        title=title,
        description=description,
        input_model=input_model,
        output_schema=seed_schema(output),
        **kw,
    )


TOOLS = [
    _tool(
        name="research_brief",
        title="Research brief",
        description="Researches a question on the web: searches, reads the best pages and writes a short "
        "brief whose every claim is backed by a verbatim quote from a page it read. Use it for a sourced "
        "answer you can cite; use search_web when you only need links. " + _ENVELOPE_NOTE + " Costs 25 credits "
        "(quick) or 60 (standard); a gated answer is free. " + _NO_PROVIDER_NOTE,
        input_model=ResearchBriefInput,
        output="researchBriefOutput",
        annotations=_WEB,
        price=lambda arguments: DEPTH_PRICES[arguments.depth],
        free_without_providers=True,
        price_note="25 (quick) or 60 (standard); 0 without a provider",
        task_support="optional",
    ),
    _tool(
        name="source_lookup",
        title="Source lookup",
        description="Audits one source: given a URL, fetches it and answers `ask` from the page with quotes; "
        "given a claim, searches for a page that states it. verdict: found | not_found | moved (redirected) "
        "| conflicting (the page contradicts the claim) | blocked (robots.txt or refused) | unaudited (could "
        "not be checked), with the page's http_status. " + _ENVELOPE_NOTE + " Costs 25 credits (as a quick "
        "brief); blocked and unaudited answers are free. " + _NO_PROVIDER_NOTE,
        input_model=SourceLookupInput,
        output="sourceLookupOutput",
        annotations=_WEB,
        price=LOOKUP_PRICE,
        free_without_providers=True,
        price_note="25; 0 without a provider",
    ),
    _tool(
        name="compare_options",
        title="Compare options (preview)",
        description="Preview: compares 2-6 options on 1-8 criteria for a question, researching each on the "
        "web; body is a table of option x criterion with the quote behind each cell. "
        + _ENVELOPE_NOTE
        + " Always free (billable false).",
        input_model=CompareOptionsInput,
        output="envelope",
        annotations=_WEB,
        preview=True,
        task_support="optional",
    ),
    _tool(
        name="credits",
        title="Credits and prices",
        description="Your credit balance (balance_cents; 1 credit = 1 cent) and the price card: packs, "
        "meters per research depth in USD (quick; `lite` is seed 004's name for it), fail_usd 0 (failed or "
        "gated calls are free), and research {mode: live|sample, prices, live_prices, missing}: what a brief "
        "costs here and the settings live research still needs. Free.",
        input_model=CreditsInput,
        output="creditsResponse",
        needs_balance=True,
    ),
]
