"""Fetch a caller-supplied URL without reaching the deployment's own network (SSRF guard).

Interim, narrow implementation for binary inputs: `fetch_public(url, max_bytes)`.
The web feature (`mcp_platform.web`) owns the full guard; when it lands,
`binary.py` should call it through the same one-function interface.

Rules: http/https only; every address the host resolves to must be global
(no private, loopback, link-local, reserved or multicast address), checked
again on every redirect; at most 3 redirects; a byte cap read as a stream.
`SSRF_ALLOW_LOOPBACK=1` (tests only) additionally admits loopback addresses.
Known gap: the address is checked, then httpx resolves again (DNS rebinding).
"""

from __future__ import annotations

import ipaddress
import os
import socket
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

import httpx

from mcp_platform.errors import ErrorCode, ToolError

MAX_REDIRECTS = 3
TIMEOUT_S = 15.0


@dataclass(frozen=True)
class FetchedBody:
    data: bytes
    media_type: str | None
    """The response's Content-Type without parameters, if it sent one."""
    filename: str | None


def fetch_public(url: str, max_bytes: int, *, field: str = "url") -> FetchedBody:
    """GET a public URL, at most `max_bytes`; every refusal is a `ToolError` naming `field`."""
    try:
        return _fetch(url, max_bytes, field)
    except httpx.HTTPError as exc:
        raise ToolError(
            f"{field}: could not download the file ({type(exc).__name__})", ErrorCode.UPSTREAM_UNAVAILABLE
        ) from None


def _fetch(url: str, max_bytes: int, field: str) -> FetchedBody:
    with httpx.Client(timeout=TIMEOUT_S, follow_redirects=False) as client:
        for _ in range(MAX_REDIRECTS + 1):
            check_public_url(url, field=field)
            with client.stream("GET", url, headers={"User-Agent": "mcp-platform/1"}) as response:
                if response.is_redirect and "location" in response.headers:
                    url = urljoin(url, response.headers["location"])
                    continue
                if response.status_code >= 400:
                    raise ToolError(
                        f"{field}: the server answered HTTP {response.status_code}", ErrorCode.UPSTREAM_UNAVAILABLE
                    )
                return FetchedBody(_read_capped(response, max_bytes, field), _media_type(response), _filename(url))
    raise ToolError(f"{field}: more than {MAX_REDIRECTS} redirects", ErrorCode.INVALID_ARGUMENTS)


def check_public_url(url: str, *, field: str = "url") -> None:
    """Raise `ToolError(invalid_arguments)` unless `url` is http(s) to public addresses only."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ToolError(
            f"{field}: only http:// and https:// URLs with a host are accepted", ErrorCode.INVALID_ARGUMENTS
        )
    try:
        infos = socket.getaddrinfo(parts.hostname, parts.port or (443 if parts.scheme == "https" else 80))
    except (socket.gaierror, UnicodeError):
        raise ToolError(f"{field}: host {parts.hostname!r} does not resolve", ErrorCode.INVALID_ARGUMENTS) from None
    allow_loopback = os.environ.get("SSRF_ALLOW_LOOPBACK") == "1"
    for info in infos:
        address = ipaddress.ip_address(info[4][0].split("%", 1)[0])
        if address.is_global or (allow_loopback and address.is_loopback):
            continue
        raise ToolError(
            f"{field}: {parts.hostname} resolves to a non-public address; only public hosts can be fetched",
            ErrorCode.INVALID_ARGUMENTS,
        )


def _read_capped(response: httpx.Response, max_bytes: int, field: str) -> bytes:
    declared = response.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > max_bytes:
        raise ToolError(
            f"{field}: the file is {declared} bytes; at most {max_bytes} accepted", ErrorCode.INVALID_ARGUMENTS
        )
    chunks, total = [], 0
    for chunk in response.iter_bytes():
        total += len(chunk)
        if total > max_bytes:
            raise ToolError(f"{field}: the file is larger than {max_bytes} bytes", ErrorCode.INVALID_ARGUMENTS)
        chunks.append(chunk)
    return b"".join(chunks)


def _media_type(response: httpx.Response) -> str | None:
    value = response.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    return value or None


def _filename(url: str) -> str | None:
    name = urlsplit(url).path.rsplit("/", 1)[-1]
    return name or None
