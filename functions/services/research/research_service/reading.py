"""Searching and reading within a budget: the first half of every research run.

Each step first asks the budget for a timeout; when there is none left, it
stops and says so in a gap. Pages are fetched concurrently. A search or page that fails becomes a gap too,
so whatever was read is still drafted and gated.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
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
        timeout = budget.step_timeout()
        if timeout is None:
            gaps.append(f"time budget: search '{query}' not run")
            break
        try:
            results = searcher.search(query, RESULTS_PER_SEARCH, timeout)
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
    """Fetch up to the page cap concurrently, each within one step timeout; pages keep the order of `urls`.

    A brief's wall time is then its slowest page, not the sum of its pages.
    """
    reading = Reading()
    urls = urls[: budget.caps.pages]
    if not urls:
        return reading
    timeout = budget.step_timeout()
    if timeout is None:
        reading.gaps.append(f"time budget: no time left to read the {len(urls)} pages found")
        return reading
    with ThreadPoolExecutor(max_workers=len(urls), thread_name_prefix="read") as pool:
        outcomes = list(pool.map(lambda url: _fetch(fetcher, url, timeout), urls))
    for outcome in outcomes:
        if isinstance(outcome, str):
            reading.gaps.append(outcome)
            continue
        budget.pages_read += 1
        reading.pages.append(outcome)
    return reading


def _fetch(fetcher: PageFetcher, url: str, timeout: float) -> Page | str:
    """The page, or the gap saying why it was not read."""
    try:
        page = fetcher.fetch(url, timeout)
    except (FetchBlockedError, FetchFailedError) as exc:
        return f"not read ({exc}): {url}"
    if page.status >= 400 or not page.text.strip():
        return f"not read (HTTP {page.status}, no text): {url}"
    return page
