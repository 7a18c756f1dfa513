"""What research needs from the outside world: a searcher, a page fetcher, an LLM.

The live implementations are the platform's own (search providers, the
SSRF-guarded fetch pipeline, the Gemini/Bedrock interface in the common
layer); golden mode plugs in recorded ones. The pipeline sees only these
protocols, so it runs the same code — quote gate included — in every mode.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True)
class SearchHit:
    title: str
    link: str
    snippet: str = ""
    kind: str = "html"
    """html or pdf (as the search contract reports it); research reads html only."""


@dataclass(frozen=True)
class Page:
    """A fetched page: its extracted text is what every quote is checked against."""

    url: str
    """The URL asked for."""
    final_url: str
    status: int
    title: str = ""
    text: str = ""
    retrieved_at: str = ""
    """ISO-8601 UTC."""
    cached: bool = False
    redirects: tuple[int, ...] = field(default_factory=tuple)
    """Status codes of the redirects followed, in order (empty when none)."""

    @property
    def moved(self) -> bool:
        return bool(self.redirects) and _comparable(self.final_url) != _comparable(self.url)


def _comparable(url: str) -> str:
    return url.rstrip("/").lower()


class FetchBlockedError(Exception):
    """The page may not be fetched: robots.txt disallows it or the SSRF guard refused it."""


class FetchFailedError(Exception):
    """The page could not be fetched (timeout, connection, not text); `status` when a response came."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class UpstreamError(Exception):
    """A search provider or the LLM failed or is rate-limited; the message names which."""


@dataclass(frozen=True)
class LlmReply:
    text: str
    input_tokens: int = 0
    output_tokens: int = 0


class Searcher(Protocol):
    def search(self, query: str, num: int, timeout: float) -> list[SearchHit]:
        """Web results for `query` within `timeout` s, best first; [] when there are none. Raises UpstreamError."""
        ...


class PageFetcher(Protocol):
    def fetch(self, url: str, timeout: float) -> Page:
        """The page at `url` (4xx/5xx are returned, not raised); raises FetchBlockedError / FetchFailedError."""
        ...


class Llm(Protocol):
    def complete(self, system: str, prompt: str, max_tokens: int, timeout: float) -> LlmReply:
        """One completion; `prompt` carries page text as data, `system` the instructions. Raises UpstreamError."""
        ...


@dataclass(frozen=True)
class Backends:
    """The three ports plus the mode they answer in (seed researchMode)."""

    mode: str
    searcher: Searcher
    fetcher: PageFetcher
    llm: Llm
