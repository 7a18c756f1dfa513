"""Recorded runs: search results, pages and LLM replies captured from live calls, replayed offline.

A run file (JSON) holds what one live call saw:
`{"tool", "match": {argument: value}, "searches": {query: [hit]}, "pages": {url: page | {"blocked": why}
| {"failed": why}}, "llm": [reply text, ...]}`. Golden mode feeds a matching run to the same pipeline the
live mode uses, so the quote gate, budgets and confidence are exercised for real.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from research_service.ports import (
    Backends,
    FetchBlockedError,
    FetchFailedError,
    LlmReply,
    Page,
    SearchHit,
    UpstreamError,
)
from research_service.quote_gate import normalise

RECORDINGS = Path(__file__).with_name("recordings")
GOLDEN_DIR = RECORDINGS / "golden"


@dataclass(frozen=True)
class Run:
    tool: str
    match: dict[str, Any]
    searches: dict[str, list[dict[str, Any]]]
    pages: dict[str, dict[str, Any]]
    llm: list[str]

    @classmethod
    def load(cls, path: Path) -> Run:
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls(data["tool"], data["match"], data.get("searches", {}), data.get("pages", {}), data.get("llm", []))

    def matches(self, tool: str, arguments: dict[str, Any]) -> bool:
        return tool == self.tool and all(_key(arguments.get(k)) == _key(v) for k, v in self.match.items())


def _key(value: Any) -> Any:
    if isinstance(value, str):
        return normalise(value).casefold()
    if isinstance(value, list):
        return [_key(item) for item in value]
    return value


class RecordedSearcher:
    def __init__(self, searches: dict[str, list[dict[str, Any]]]) -> None:
        self._searches = {_key(q): hits for q, hits in searches.items()}

    def search(self, query: str, num: int, timeout: float) -> list[SearchHit]:
        return [SearchHit(**hit) for hit in self._searches.get(_key(query), [])[:num]]


class RecordedFetcher:
    def __init__(self, pages: dict[str, dict[str, Any]]) -> None:
        self._pages = pages

    def fetch(self, url: str, timeout: float) -> Page:
        recorded = self._pages.get(url)
        if recorded is None:
            raise FetchFailedError("not in the recording")
        if "blocked" in recorded:
            raise FetchBlockedError(recorded["blocked"])
        if "failed" in recorded:
            raise FetchFailedError(recorded["failed"], recorded.get("status"))
        # A recorded body is served from the recording, not the web: it is reported as cached.
        fields = {"cached": True, **recorded, "redirects": tuple(recorded.get("redirects", ()))}
        return Page(url=url, **{k: v for k, v in fields.items() if k != "url"})


class RecordedLlm:
    """Replays the recorded replies in call order."""

    def __init__(self, replies: list[str]) -> None:
        self._replies = list(replies)

    def complete(self, system: str, prompt: str, max_tokens: int, timeout: float) -> LlmReply:
        if not self._replies:
            raise UpstreamError("the recording has no further model reply")
        return LlmReply(self._replies.pop(0))


def replay(run: Run, mode: str = "golden") -> Backends:
    return Backends(mode, RecordedSearcher(run.searches), RecordedFetcher(run.pages), RecordedLlm(run.llm))


@cache
def golden_runs(directory: Path = GOLDEN_DIR) -> tuple[Run, ...]:
    return tuple(Run.load(path) for path in sorted(directory.glob("*.json")))


def find_golden(tool: str, arguments: dict[str, Any], directory: Path = GOLDEN_DIR) -> Run | None:
    """The recorded run of this tool whose `match` arguments equal the call's (case and spacing aside)."""
    return next((run for run in golden_runs(directory) if run.matches(tool, arguments)), None)
