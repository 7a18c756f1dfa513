"""robots.txt, honoured for the platform's user agent (RFC 9309 through protego).

A robots.txt that answers 4xx allows everything; one that answers 5xx or cannot be reached
disallows everything (RFC 9309 §2.3.1.3-4). That disallow is its own retryable error,
`robots_unreachable`, naming what failed (DNS, connect, timeout, 5xx), and it is not cached: the
next call asks again. Parsed files (and 4xx answers) are kept per origin for `ttl` seconds in the
container.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal
from urllib.parse import urlsplit, urlunsplit

from protego import Protego

from mcp_platform.protocol.errors import ToolError
from mcp_platform.runtime.memory_cache import MemoryCache
from mcp_platform.web.addresses import BlockedAddressError
from mcp_platform.web.errors import WebErrorCode
from mcp_platform.web.http import ROBOTS_TOKEN, FetchLimits, download
from mcp_platform.web.text import decode_body

if TYPE_CHECKING:
    import httpx

_ROBOTS_LIMITS = FetchLimits(max_bytes=512 * 1024, connect_timeout=3.0, total_timeout=5.0)
_ORIGINS = 1024
"""Origins whose rules a container keeps (the least recently used go first)."""


@dataclass
class RobotsRules:
    """Callable `allowed(url)` for `download`: raises `ToolError(robots_disallowed)` when robots.txt says no.

    `ToolError(robots_unreachable)` (retryable, not cached) when robots.txt cannot be read at all.
    """

    client: httpx.Client | None = None
    ttl: float = 3600.0
    _cache: MemoryCache[str, Protego | Literal[True]] = field(default_factory=lambda: MemoryCache(_ORIGINS), repr=False)

    def __call__(self, url: str) -> None:
        parts = urlsplit(url)
        origin = urlunsplit((parts.scheme, parts.netloc, "", "", ""))
        rules = self._rules(origin)
        if rules is True:
            return
        if not rules.can_fetch(url, ROBOTS_TOKEN):
            raise ToolError(
                f"{origin}/robots.txt does not allow {ROBOTS_TOKEN} to fetch {url}",
                WebErrorCode.ROBOTS_DISALLOWED,
            )

    def _rules(self, origin: str) -> Protego | Literal[True]:
        """Parsed rules, or True (allow all); an unreachable robots.txt raises and is not cached."""
        return self._cache.get_or_load(origin, self._load, lambda _: self.ttl)

    def _load(self, origin: str) -> Protego | Literal[True]:
        robots_url = f"{origin}/robots.txt"
        try:
            got = download(robots_url, limits=_ROBOTS_LIMITS, client=self.client, raise_for_status=False)
        except BlockedAddressError:
            raise
        except ToolError as exc:
            raise _unreachable(robots_url, exc.message) from None
        if got.status >= 500:
            raise _unreachable(robots_url, f"{robots_url} answered HTTP {got.status}")
        if got.status >= 400:
            return True
        return Protego.parse(decode_body(got.body, got.headers.get("content-type")))


def _unreachable(robots_url: str, reason: str) -> ToolError:
    """RFC 9309 §2.3.1.4: an unreachable robots.txt means "disallow all" — said as what it is."""
    return ToolError(
        f"robots.txt unreachable: {reason}. RFC 9309 treats an unreachable {robots_url} as disallowing "
        "everything, so the page was not fetched; retry later.",
        WebErrorCode.ROBOTS_UNREACHABLE,
    )
