"""An httpx transport that connects only to the address it has checked.

httpx resolves names inside httpcore's network backend; `GuardedBackend` takes that step over:
it resolves the host once, refuses the whole answer if any address is not public, and opens the
socket to a checked IP. There is no second lookup to rebind, and TLS still verifies and sends SNI
for the hostname (httpcore passes the URL's host to `start_tls`), so the Host header, SNI and
certificate checks are unchanged. Proxies from the environment are ignored (`trust_env=False`):
a proxy would make the connection on our behalf, past the check.
"""

from __future__ import annotations

import socket
from functools import cache
from typing import TYPE_CHECKING

from mcp_platform.web.addresses import BlockedAddressError, check_address, parse_ip_literal

if TYPE_CHECKING:
    from collections.abc import Iterable

    import httpx
    from httpcore import NetworkStream
    from httpcore._backends.base import SOCKET_OPTION

    from mcp_platform.web.addresses import IPAddress


def resolve_public(host: str, port: int) -> list[IPAddress]:
    """Every address `host` resolves to, all public, or `BlockedAddressError`.

    Examples:
        >>> resolve_public("127.0.0.1", 80)
        Traceback (most recent call last):
        BlockedAddressError: url: 127.0.0.1 resolves to 127.0.0.1, a loopback address; ...
    """
    literal = parse_ip_literal(host)
    if literal is not None:
        check_address(literal, host)
        return [literal]
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        import httpcore

        raise httpcore.ConnectError(f"cannot resolve {host}: {exc}") from None
    addresses: list[IPAddress] = []
    for _family, _type, _proto, _name, sockaddr in infos:
        ip = parse_ip_literal(str(sockaddr[0]))
        if ip is None:
            raise BlockedAddressError(f"url: {host} resolved to an unusable address")
        check_address(ip, host)
        if ip not in addresses:
            addresses.append(ip)
    if not addresses:
        import httpcore

        raise httpcore.ConnectError(f"cannot resolve {host}: no addresses")
    return addresses


@cache
def _guarded_transport() -> type[httpx.HTTPTransport]:
    """`GuardedTransport` (and its `GuardedBackend`), defined on first use: httpx and httpcore (~30 ms) are
    imported by the first client, not at init."""
    import httpcore
    import httpx

    class GuardedBackend(httpcore.SyncBackend):
        """httpcore network backend that connects by checked IP (see the module docstring)."""

        def connect_tcp(
            self,
            host: str,
            port: int,
            timeout: float | None = None,
            local_address: str | None = None,
            socket_options: Iterable[SOCKET_OPTION] | None = None,
        ) -> NetworkStream:
            last: httpcore.ConnectError | httpcore.ConnectTimeout | None = None
            for ip in resolve_public(host, port):
                try:
                    return super().connect_tcp(str(ip), port, timeout, local_address, socket_options)
                except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                    last = exc
            assert last is not None  # resolve_public never returns an empty list
            raise last

    class GuardedTransport(httpx.HTTPTransport):
        """`httpx.HTTPTransport` whose connection pool uses `GuardedBackend` and no environment proxy."""

        def __init__(self, *, max_connections: int = 10) -> None:
            super().__init__(trust_env=False, retries=0)
            # HTTPTransport has no network_backend argument: swap in an equivalent pool that has one.
            self._pool = httpcore.ConnectionPool(
                ssl_context=httpx.create_ssl_context(trust_env=False),
                max_connections=max_connections,
                network_backend=GuardedBackend(),
            )

    return GuardedTransport


def guarded_client(**kwargs: object) -> httpx.Client:
    """An `httpx.Client` on `GuardedTransport` that never follows redirects by itself.

    Redirects are followed by `mcp_platform.web.http.download`, which checks each hop.
    """
    import httpx

    return httpx.Client(transport=_guarded_transport()(), follow_redirects=False, trust_env=False, **kwargs)  # type: ignore[arg-type]
