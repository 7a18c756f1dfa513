"""A tiny HTTP site on 127.0.0.1 for tests of URL-fetching tools (fetch, search, docs).

Routes map a path to `Reply(status, body, headers, delay)`, or to a callable building one.
Use `LocalSite()` as a context manager; `site.url("/path")` gives the absolute URL. The fetch
guard refuses loopback unless the policy allows it (`SSRF_ALLOW_LOOPBACK=1`), which the `site` fixture does.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

import pytest

from tests.support.ssrf import LOOPBACK, use_policy

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator


@dataclass
class Reply:
    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    """Seconds to wait between body chunks of 1 KB (a slow server)."""
    chunked: bool = False
    """Send no Content-Length (the body ends when the connection closes)."""


class LocalSite:
    """Threaded HTTP server on an ephemeral loopback port; records every request path."""

    def __init__(self) -> None:
        self.routes: dict[str, Reply | Callable[[], Reply]] = {}
        self.requests: list[tuple[str, dict[str, str]]] = []
        site = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"

            def do_GET(self) -> None:
                site.requests.append((self.path, dict(self.headers.items())))
                route = site.routes.get(self.path) or site.routes.get(self.path.split("?")[0])
                reply = route() if callable(route) else route or Reply(404, b"not found")
                self.send_response(reply.status)
                headers = {"Content-Type": "text/html; charset=utf-8", **reply.headers}
                for name, value in headers.items():
                    self.send_header(name, value)
                if not reply.chunked:
                    self.send_header("Content-Length", str(len(reply.body)))
                self.end_headers()
                try:
                    for i in range(0, len(reply.body), 1024):
                        self.wfile.write(reply.body[i : i + 1024])
                        if reply.delay:
                            self.wfile.flush()
                            time.sleep(reply.delay)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def log_message(self, *_args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def url(self, path: str = "/") -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}{path}"

    def __enter__(self) -> LocalSite:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()


ARTICLE = """<!doctype html><html><head><title>Local article</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>Local article</h1>
<p>The first paragraph of a long article about fetching pages safely. It explains why a server that
fetches URLs for others must refuse private addresses, and how a <a href="/guard">guard</a> does it.</p>
<h2>Lists and tables</h2>
<ul><li>Resolve the host once and check every address.</li><li>Connect to the checked address.</li></ul>
<table><tr><th>Rule</th><th>Why</th></tr><tr><td>No loopback</td><td>Local services trust it</td></tr></table>
<p>A closing paragraph with enough words to be counted as the main content of the page by the extractor,
which ignores navigation and footers.</p>
<pre><code>print("hello")</code></pre>
</article><footer>Copyright footer text</footer></body></html>"""


@pytest.fixture
def site(monkeypatch: pytest.MonkeyPatch) -> Iterator[LocalSite]:
    """A running `LocalSite` with the loopback test switch on (import this fixture into a test module)."""
    use_policy(monkeypatch, LOOPBACK)
    with LocalSite() as running:
        yield running
