"""Re-record research's golden runs from live providers (needs internet and provider keys).

    .venv/bin/python scripts/refresh_research_fixtures.py

For each recorded run under functions/services/research/research_service/recordings/golden/,
calls the tool live with the run's `match` arguments through recording wrappers
around the live backends, and rewrites the run file with what was seen: search
results, page texts (with status and redirects) and the model's replies.
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "shared"), str(ROOT / "functions" / "services" / "research")]

from research_service import modes
from research_service.app import app
from research_service.live import live_backends
from research_service.ports import (
    Backends,
    FetchBlockedError,
    FetchFailedError,
    LlmReply,
    Page,
    SearchHit,
)
from research_service.recorded import GOLDEN_DIR

DEFAULT_ARGUMENTS = {"research_brief": {"depth": "standard"}}


class Recording:
    """Wraps live backends and keeps what they returned, in the run file's format."""

    def __init__(self, live: Backends) -> None:
        self.live = live
        self.searches: dict[str, list[dict[str, Any]]] = {}
        self.pages: dict[str, dict[str, Any]] = {}
        self.llm: list[str] = []

    def search(self, query: str, num: int, timeout: float) -> list[SearchHit]:
        hits = self.live.searcher.search(query, num, timeout)
        self.searches[query] = [asdict(hit) for hit in hits]
        return hits

    def fetch(self, url: str, timeout: float) -> Page:
        try:
            page = self.live.fetcher.fetch(url, timeout)
        except FetchBlockedError as exc:
            self.pages[url] = {"blocked": str(exc)}
            raise
        except FetchFailedError as exc:
            self.pages[url] = {"failed": str(exc), "status": exc.status}
            raise
        self.pages[url] = {k: v for k, v in asdict(page).items() if k not in ("url", "cached")}
        return page

    def complete(self, system: str, prompt: str, max_tokens: int, timeout: float) -> LlmReply:
        reply = self.live.llm.complete(system, prompt, max_tokens, timeout)
        self.llm.append(reply.text)
        return reply


def main() -> int:
    live = live_backends()
    if live is None:
        print("no live providers are configured (search, fetch and LLM keys); nothing recorded", file=sys.stderr)
        return 1
    for path in sorted(GOLDEN_DIR.glob("*.json")):
        run = json.loads(path.read_text(encoding="utf-8"))
        recording = Recording(live)
        modes.live_backends = lambda rec=recording: Backends("live", rec, rec, rec)
        arguments = {**DEFAULT_ARGUMENTS.get(run["tool"], {}), **run["match"]}
        reply = app.handle({"tool": run["tool"], "arguments": arguments, "account_id": "refresh", "request_id": "r"})
        if reply.is_error:
            print(f"{path.name}: {reply.structured_content['error']}", file=sys.stderr)
            continue
        run.update(searches=recording.searches, pages=recording.pages, llm=recording.llm)
        path.write_text(json.dumps(run, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"{path.name}: {len(recording.pages)} pages, {len(recording.llm)} replies")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
