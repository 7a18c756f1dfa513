"""From surviving claims to the envelope's sources and body: only gated evidence is shown."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from research_service.envelope import source_entry
from research_service.sources import source_type

if TYPE_CHECKING:
    from collections.abc import Mapping

    from research_service.drafting import SourceNote
    from research_service.ports import Page
    from research_service.quote_gate import DraftClaim


def backed_sources(
    kept: list[DraftClaim], pages: list[Page], notes: Mapping[str, SourceNote] | None = None
) -> list[dict[str, Any]]:
    """One seed `source` per page that backs a surviving claim, in the order the claims cite them.

    `notes` are the model's remarks per URL (type, what the page supports);
    the host decides the type where it is known (see `sources.source_type`).
    """
    notes = notes or {}
    by_url = {page.final_url: page for page in pages}
    cited = list(dict.fromkeys(claim.source_url for claim in kept))
    out = []
    for url in cited:
        note = notes.get(url)
        supports = (note.supports if note else "") or "; ".join(c.claim for c in kept if c.source_url == url)
        out.append(source_entry(by_url[url], source_type(url, note.type if note else None), supports))
    return out


def claims_body(kept: list[DraftClaim], sources: list[dict[str, Any]]) -> str:
    """Markdown list of the surviving claims with [n] pointing into `sources`: nothing unverified."""
    index = {source["url"]: number for number, source in enumerate(sources, start=1)}
    return "\n".join(f"- {claim.claim} [{index[claim.source_url]}]" for claim in kept)
