"""`download`: one guarded GET with redirects re-checked, a byte cap and a total deadline.

Every failure is a `ToolError` with a `WebErrorCode` (or `upstream_unavailable`) and a message
naming the rule, so tools can let it through to the caller unchanged.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from functools import cache
from typing import TYPE_CHECKING
from urllib.parse import urljoin

from mcp_platform.outbound import upstream
from mcp_platform.protocol.errors import ToolError
from mcp_platform.web.addresses import check_url
from mcp_platform.web.errors import WebErrorCode
from mcp_platform.web.transport import guarded_client

if TYPE_CHECKING:
    from collections.abc import Callable

    import httpx

    from mcp_platform.runtime.settings import WebSettings

DEFAULT_CONTACT_URL = "https://mcp.glc-rag.hu/guide/fetch"
"""Where site owners learn about our crawler, named in the user agent, unless `WEB_CONTACT_URL` says otherwise."""
ROBOTS_TOKEN = "McpPlatformFetch"
"""The product token robots.txt rules are matched against."""
_REDIRECTS = frozenset({301, 302, 303, 307, 308})


def user_agent(contact_url: str = DEFAULT_CONTACT_URL) -> str:
    """`McpPlatformFetch/1.0 (+<contact URL>)`."""
    return f"{ROBOTS_TOKEN}/1.0 (+{contact_url})"


@dataclass(frozen=True)
class FetchLimits:
    """Caps of one download (redirects included), and the contact URL its user agent names."""

    max_bytes: int = 10 * 1024 * 1024
    connect_timeout: float = 5.0
    total_timeout: float = 20.0
    max_redirects: int = 5
    contact_url: str = DEFAULT_CONTACT_URL

    @classmethod
    def of(cls, settings: WebSettings) -> FetchLimits:
        """The function's limits (`WEB_MAX_BYTES`, `WEB_CONNECT_TIMEOUT`, `WEB_TOTAL_TIMEOUT`) and contact URL
        (`WEB_CONTACT_URL`); defaults above where they are unset or empty."""
        return cls(
            max_bytes=settings.web_max_bytes or cls.max_bytes,
            connect_timeout=settings.web_connect_timeout or cls.connect_timeout,
            total_timeout=settings.web_total_timeout or cls.total_timeout,
            contact_url=settings.web_contact_url.strip() or cls.contact_url,
        )

    def within(self, seconds: float) -> FetchLimits:
        """These limits with the total time cut to `seconds` (what is left of the invocation)."""
        return replace(self, total_timeout=max(0.5, min(self.total_timeout, seconds)))


@dataclass(frozen=True)
class Download:
    """A completed response: the body is complete and within `max_bytes`."""

    url: str
    final_url: str
    status: int
    headers: httpx.Headers = field(repr=False)
    body: bytes = field(repr=False)
    redirects: tuple[int, ...] = ()
    """Status codes of the redirects followed to `final_url`, in order (empty when none)."""

    @property
    def content_type(self) -> str:
        """The media type, lower case, without parameters (`""` when the server sent none)."""
        return str(self.headers.get("content-type", "")).split(";", 1)[0].strip().lower()


@cache
def shared_client() -> httpx.Client:
    """One guarded client per container, reused across warm invocations."""
    return guarded_client()


def download(
    url: str,
    *,
    limits: FetchLimits | None = None,
    accept: str = "*/*",
    allowed: Callable[[str], None] | None = None,
    client: httpx.Client | None = None,
    raise_for_status: bool = True,
) -> Download:
    """GET `url` under the SSRF rules, following at most `limits.max_redirects` checked redirects.

    `allowed(url)` runs before each hop (robots.txt, for instance) and raises to refuse it.
    With `raise_for_status`, a final 4xx/5xx becomes `ToolError(http_error, status=...)`.

    Examples:
        >>> page = download("https://example.com/", limits=FetchLimits(max_bytes=1_000_000))
        >>> page.status, page.content_type
        (200, 'text/html')
    """
    limits = limits or FetchLimits()
    client = client or shared_client()
    deadline = time.monotonic() + limits.total_timeout
    current = check_url(url)
    redirects: list[int] = []
    for hop in range(limits.max_redirects + 1):
        if allowed is not None:
            allowed(current)
        status, headers, body = _get(client, current, accept, limits, deadline)
        location = headers.get("location")
        if status in _REDIRECTS and location:
            if hop == limits.max_redirects:
                break
            redirects.append(status)
            current = check_url(urljoin(current, location))
            continue
        if raise_for_status and status >= 400:
            raise ToolError(
                f"{current} answered HTTP {status}", WebErrorCode.HTTP_ERROR, status=status, final_url=current
            )
        return Download(
            url=url, final_url=current, status=status, headers=headers, body=body, redirects=tuple(redirects)
        )
    raise ToolError(
        f"url: more than {limits.max_redirects} redirects starting at {url}", WebErrorCode.TOO_MANY_REDIRECTS
    )


def _get(
    client: httpx.Client, url: str, accept: str, limits: FetchLimits, deadline: float
) -> tuple[int, httpx.Headers, bytes]:
    import httpx  # with the first download, as the client is: a service's init does not load the HTTP stack

    remaining = deadline - time.monotonic()
    if remaining <= 0:
        raise _timeout(url, limits)
    timeout = httpx.Timeout(remaining, connect=min(limits.connect_timeout, remaining))
    request_headers = {"User-Agent": user_agent(limits.contact_url), "Accept": accept}
    try:
        with client.stream("GET", url, headers=request_headers, timeout=timeout) as response:
            if response.status_code in _REDIRECTS:
                return response.status_code, response.headers, b""
            declared = response.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > limits.max_bytes:
                raise _too_large(url, limits)
            chunks, size = [], 0
            for chunk in response.iter_bytes():
                size += len(chunk)
                if size > limits.max_bytes:
                    raise _too_large(url, limits)
                if time.monotonic() > deadline:
                    raise _timeout(url, limits)
                chunks.append(chunk)
            return response.status_code, response.headers, b"".join(chunks)
    except httpx.TimeoutException:
        raise _timeout(url, limits) from None
    except (httpx.HTTPError, httpx.InvalidURL) as exc:
        raise upstream.unreachable(url, exc) from None


def _too_large(url: str, limits: FetchLimits) -> ToolError:
    return ToolError(f"{url}: response is larger than the {limits.max_bytes} byte limit", WebErrorCode.TOO_LARGE)


def _timeout(url: str, limits: FetchLimits) -> ToolError:
    return ToolError(f"{url}: no complete response within {limits.total_timeout:g} s", WebErrorCode.TIMEOUT)
