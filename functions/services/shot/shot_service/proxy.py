"""The browser's only way out: a forward proxy on loopback that applies fetch's SSRF rules.

Chromium resolves names and follows redirects itself, so checking a URL before handing it to
the browser proves nothing (DNS may answer differently a moment later, a page may request
anything). The browser is started with this proxy for every scheme and no bypass, so every
connection it makes — navigation, each redirect hop, subresources, fetch/XHR, WebSockets —
arrives here first. The proxy resolves the host once (`resolve_public`: the whole answer must
be public), connects to the checked address and only then relays bytes: the same guarantee as
`mcp_platform.web.transport`, with no second lookup to rebind. Refusals are recorded so the
tool can say which requests the page was denied.

Every request also meets fetch's port rule (80, 443 and `FetchExtraPorts`) before any lookup:
CONNECT (https, wss) and absolute-form (http, ws) alike, so no redirect, subresource or
WebSocket of a page reaches another port of a public host.

Plain-HTTP requests are forwarded one per connection (`Connection: close`), so a kept-alive
browser connection can never carry a second request to another host over an open tunnel.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from mcp_platform.protocol.errors import ToolError
from mcp_platform.web.addresses import BlockedAddressError, port_refusal
from mcp_platform.web.transport import resolve_public

HEAD_LIMIT = 64 * 1024
CONNECT_TIMEOUT_S = 10.0
_DROPPED_HEADERS = (b"proxy-connection", b"proxy-authorization", b"connection", b"keep-alive")


@dataclass
class Refusal:
    url: str
    reason: str


@dataclass
class ProxyLog:
    """What the proxy refused since `clear()`; read by the capture that owns the browser."""

    refusals: list[Refusal] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, url: str, reason: str) -> None:
        with self._lock:
            self.refusals.append(Refusal(url[:300], reason))

    def take(self) -> list[Refusal]:
        with self._lock:
            taken, self.refusals = self.refusals, []
            return taken


class GuardProxy:
    """The proxy server, on its own thread and event loop; `address` is what Chromium's --proxy-server takes."""

    def __init__(self) -> None:
        self.log = ProxyLog()
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="shot-proxy", daemon=True)
        self.port = 0

    @property
    def address(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> GuardProxy:
        self._thread.start()
        self._ready.wait(10)
        if not self.port:
            raise RuntimeError("the browser's guard proxy did not start")
        return self

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        server = self._loop.run_until_complete(asyncio.start_server(self._serve, "127.0.0.1", 0))
        self.port = server.sockets[0].getsockname()[1]
        self._ready.set()
        self._loop.run_forever()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
            writer.close()
            return
        try:
            await self._forward(head, reader, writer)
        except (ConnectionError, TimeoutError, OSError):
            pass
        finally:
            with contextlib.suppress(ConnectionError, OSError):
                writer.close()

    async def _forward(self, head: bytes, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        request_line, _, header_block = head.partition(b"\r\n")
        parts = request_line.split(b" ")
        if len(parts) != 3:
            await _reply(writer, 400, "malformed request line")
            return
        method, target = parts[0].decode("latin-1"), parts[1].decode("latin-1")
        connect = method == "CONNECT"
        split = urlsplit(f"//{target}" if connect else target)
        if not connect and split.scheme not in ("http", "ws"):
            self.log.add(target, "only http(s) and ws(s) may be requested")
            await _reply(writer, 403, "scheme not allowed")
            return
        try:
            host, port = split.hostname, split.port or (443 if connect else 80)
        except ValueError:  # a port that is no number ("host:https") or out of range
            host = None
        if not host:
            await _reply(writer, 400, "no host and port to connect to")
            return
        url = f"https://{target}" if connect else target
        if refusal := port_refusal(port, host):
            self.log.add(url, refusal)
            await _reply(writer, 403, "port not allowed")
            return
        origin_head = None
        if not connect:
            path = (split.path or "/") + (f"?{split.query}" if split.query else "")
            origin_head = _origin_form(method, path, header_block)
        upstream = await self._open(url, host, port, writer)
        if upstream is None:
            return
        up_reader, up_writer = upstream
        if origin_head is None:
            writer.write(b"HTTP/1.1 200 Connection Established\r\n\r\n")
        else:
            up_writer.write(origin_head)
        await writer.drain()
        await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))

    async def _open(
        self, url: str, host: str, port: int, writer: asyncio.StreamWriter
    ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
        try:
            addresses = await asyncio.to_thread(resolve_public, host, port)
        except BlockedAddressError as exc:
            self.log.add(url, exc.message.removeprefix("url: "))
            await _reply(writer, 403, "blocked by the SSRF rules")
            return None
        except (ToolError, OSError, Exception) as exc:  # resolution failures: httpcore.ConnectError and kin
            await _reply(writer, 502, f"cannot resolve {host}: {type(exc).__name__}")
            return None
        for ip in addresses:
            try:
                return await asyncio.wait_for(asyncio.open_connection(str(ip), port), CONNECT_TIMEOUT_S)
            except (OSError, TimeoutError):
                continue
        await _reply(writer, 502, f"cannot connect to {host}")
        return None


def _origin_form(method: str, path: str, header_block: bytes) -> bytes:
    """The request head as an origin server expects it: origin-form target, no proxy headers."""
    lines = [f"{method} {path} HTTP/1.1".encode("latin-1")]
    upgrade = False
    for line in header_block.split(b"\r\n"):
        name = line.split(b":", 1)[0].strip().lower()
        if not line or name in _DROPPED_HEADERS:
            upgrade = upgrade or (name == b"connection" and b"upgrade" in line.lower())
            continue
        lines.append(line)
    lines.append(b"Connection: Upgrade" if upgrade else b"Connection: close")
    return b"\r\n".join(lines) + b"\r\n\r\n"


async def _pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
    try:
        while chunk := await source.read(65536):
            sink.write(chunk)
            await sink.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        with contextlib.suppress(ConnectionError, OSError, RuntimeError):
            if sink.can_write_eof():
                sink.write_eof()


async def _reply(writer: asyncio.StreamWriter, status: int, message: str) -> None:
    body = message.encode()
    reason = {400: "Bad Request", 403: "Forbidden", 502: "Bad Gateway"}[status]
    writer.write(
        f"HTTP/1.1 {status} {reason}\r\nContent-Type: text/plain\r\nX-Shot-Guard: refused\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
        + body
    )
    with contextlib.suppress(ConnectionError, OSError):
        await writer.drain()
