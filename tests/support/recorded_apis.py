"""A loopback server that answers like the configured backend APIs, from recorded responses.

Every `tests/fixtures/<service>/INDEX.json` entry with an `api` field is served: the entry keeps
the recording's provenance (`url`, `source`, `licence`, `recorded`, `sha256`, ...) and adds

* `api`: the backend name (`pubchem`, `rxnav`, `openfda`, ...): served under `/<api>/`, so the
  base-URL variable is `http://127.0.0.1:<port>/<api>` (a mirror with a path prefix);
* `match`: `{"path": regex over the API's own path, "query": {name: regex, ...}}`: the request
  path must fully match and each listed query parameter must be present and fully match its
  regex, case-insensitively (others are ignored); more specific entries (more parameters) win.

A request no recording matches gets HTTP 501, so a test fails loudly instead of seeing a fake
"not found". Tests count requests per api (`hits`) and may queue replies (`queue`) to play
429/503 with Retry-After before the recording.
"""

from __future__ import annotations

import json
import re
import threading
from collections import Counter, deque
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@dataclass(frozen=True)
class Recording:
    api: str
    file: Path
    status: int
    content_type: str
    path: re.Pattern[str]
    query: tuple[tuple[str, re.Pattern[str]], ...]

    @property
    def body(self) -> bytes:
        return self.file.read_bytes()

    def matches(self, path: str, query: dict[str, str]) -> bool:
        return bool(self.path.fullmatch(path)) and all(
            k in query and pattern.fullmatch(query[k]) for k, pattern in self.query
        )


@dataclass(frozen=True)
class Canned:
    status: int
    headers: dict[str, str]
    body: bytes = b""


def recordings(root: Path = FIXTURES) -> list[Recording]:
    """Every served entry of every fixture folder's INDEX.json."""
    out = []
    for index in sorted(root.glob("*/INDEX.json")):
        for entry in json.loads(index.read_text()):
            if "api" not in entry:
                continue
            match = entry["match"]
            out.append(
                Recording(
                    api=entry["api"],
                    file=index.parent / entry["file"],
                    status=int(entry["status"]),
                    content_type=entry.get("content_type") or "application/json",
                    path=re.compile(match["path"]),
                    query=tuple(
                        (k, re.compile(v, re.IGNORECASE)) for k, v in sorted((match.get("query") or {}).items())
                    ),
                )
            )
    return out


class RecordedApis:
    """Threaded HTTP server on an ephemeral loopback port (use as a context manager)."""

    def __init__(self, served: list[Recording] | None = None) -> None:
        self.served = served if served is not None else recordings()
        self.hits: Counter[str] = Counter()
        self.requests: list[tuple[str, str, dict[str, str]]] = []
        """(api, path, headers) of every request, in order."""
        self._queued: dict[str, deque[Canned]] = {}
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def apis(self) -> list[str]:
        return sorted({r.api for r in self.served})

    def base_url(self, api: str) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/{api}"

    def environment(self) -> dict[str, str]:
        """`<API>_BASE_URL` for every served api (the catalogue's variable names)."""
        from mcp_platform.backends import BACKENDS

        return {BACKENDS[api].env: self.base_url(api) for api in self.apis if api in BACKENDS}

    def queue(self, api: str, *replies: Canned) -> None:
        """Answer the next requests to `api` with `replies` (in order) before any recording."""
        with self._lock:
            self._queued.setdefault(api, deque()).extend(replies)

    def reset(self) -> None:
        with self._lock:
            self.hits.clear()
            self.requests.clear()
            self._queued.clear()

    def find(self, api: str, path: str, query: dict[str, str]) -> Recording | None:
        candidates = [r for r in self.served if r.api == api and r.matches(path, query)]
        return max(candidates, key=lambda r: len(r.query), default=None)

    def __enter__(self) -> RecordedApis:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _answer(self, raw_path: str, headers: dict[str, str]) -> Canned:
        parts = urlsplit(raw_path)
        api, _, rest = parts.path.lstrip("/").partition("/")
        path = "/" + rest
        with self._lock:
            self.hits[api] += 1
            self.requests.append((api, raw_path, headers))
            queued = self._queued.get(api)
            if queued:
                return queued.popleft()
        recording = self.find(api, path, dict(parse_qsl(parts.query, keep_blank_values=True)))
        if recording is None:
            body = json.dumps({"error": f"no recording for {api} {raw_path}"}).encode()
            return Canned(501, {"Content-Type": "application/json"}, body)
        return Canned(recording.status, {"Content-Type": recording.content_type}, recording.body)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                reply = owner._answer(self.path, dict(self.headers.items()))
                self.send_response(reply.status)
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(reply.body)))
                self.end_headers()
                self.wfile.write(reply.body)

            def log_message(self, *_args: Any) -> None:
                pass

        return Handler
