"""Searching and reading within a budget: the first half of every research run.

Each step first asks the budget for a timeout; when there is none left, it
stops and says so in a gap. A search or page that fails becomes a gap too,
so whatever was read is still drafted and gated.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from research_service.ports import (
    FetchBlockedError,
    FetchFailedError,
    Page,
    PageFetcher,
    Searcher,
    SearchHit,
    UpstreamError,
)
from research_service.sources import publisher

if TYPE_CHECKING:
    from research_service.budget import Budget

RESULTS_PER_SEARCH = 8


@dataclass
class Reading:
    pages: list[Page] = field(default_factory=list)
    gaps: list[str] = field(default_factory=list)

    @property
    def texts(self) -> dict[str, str]:
        """Fetched text per URL (the final URL, as claims cite it), for the quote gate."""
        return {page.final_url: page.text for page in self.pages}


def search_all(searcher: Searcher, budget: Budget, queries: list[str], gaps: list[str]) -> list[SearchHit]:
    """Hits of up to `caps.searches` queries, in order, without repeated links."""
    hits: list[SearchHit] = []
    seen: set[str] = set()
    for query in queries[: budget.caps.searches]:
        if budget.step_timeout() is None:
            gaps.append(f"time budget: search '{query}' not run")
            break
        try:
            results = searcher.search(query, RESULTS_PER_SEARCH)
        except UpstreamError as exc:
            gaps.append(f"search '{query}' failed: {exc}")
            continue
        budget.searches_run += 1
        for hit in results:
            if hit.link not in seen:
                seen.add(hit.link)
                hits.append(hit)
    return hits


def pick_urls(hits: list[SearchHit], limit: int) -> list[str]:
    """Up to `limit` HTML links, one per publisher first (independent sources), then the rest by rank."""
    html = [hit.link for hit in hits if hit.kind != "pdf"]
    first: list[str] = []
    rest: list[str] = []
    publishers: set[str] = set()
    for link in html:
        owner = publisher(link)
        (rest if owner in publishers else first).append(link)
        publishers.add(owner)
    return (first + rest)[:limit]


def read_pages(fetcher: PageFetcher, budget: Budget, urls: list[str]) -> Reading:
    """Fetch `urls` in order until the page cap or the time budget is reached."""
    reading = Reading()
    for index, url in enumerate(urls[: budget.caps.pages]):
        timeout = budget.step_timeout()
        if timeout is None:
            planned = min(len(urls), budget.caps.pages)
            reading.gaps.append(f"time budget: stopped reading after {index} of {planned} pages")
            break
        try:
            page = fetcher.fetch(url, timeout)
        except (FetchBlockedError, FetchFailedError) as exc:
            reading.gaps.append(f"not read ({exc}): {url}")
            continue
        if page.status >= 400 or not page.text.strip():
            reading.gaps.append(f"not read (HTTP {page.status}, no text): {url}")
            continue
        budget.pages_read += 1
        reading.pages.append(page)
    return reading
