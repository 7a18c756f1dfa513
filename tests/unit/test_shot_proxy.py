"""The shot guard proxy applies fetch's port rule to every request the browser makes (issue 34 §5).

CONNECT (https, wss), absolute-form (http, ws): only 80, 443 and `FetchExtraPorts`
(`SSRF_ALLOWED_PORTS`); a CONNECT target without a port means 443 and is answered, never a crash.
The browser's redirects, subresources and WebSockets all arrive here as one of these two forms.
"""

from __future__ import annotations

import socket
from typing import TYPE_CHECKING

import pytest

from mcp_platform.web.addresses import AddressPolicy
from shot_service.proxy import GuardProxy
from tests.support.ssrf import STRICT, use_policy

if TYPE_CHECKING:
    from collections.abc import Iterator


@pytest.fixture(scope="module")
def proxy() -> Iterator[GuardProxy]:
    yield GuardProxy().start()


@pytest.fixture(autouse=True)
def _no_loopback_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    use_policy(monkeypatch, STRICT)


def ask(proxy: GuardProxy, head: str) -> str:
    """Send one request head to the proxy; its status line (empty if it closed without answering)."""
    with socket.create_connection(("127.0.0.1", proxy.port), timeout=5) as conn:
        conn.sendall(head.encode())
        return conn.makefile("rb").readline().decode().strip()


@pytest.mark.parametrize(
    "head",
    [
        "CONNECT 93.184.215.14:8443 HTTP/1.1\r\nHost: 93.184.215.14:8443\r\n\r\n",  # https / wss
        "GET http://93.184.215.14:8080/ HTTP/1.1\r\nHost: 93.184.215.14:8080\r\n\r\n",  # http, a redirect hop
        "GET ws://93.184.215.14:9000/socket HTTP/1.1\r\nHost: 93.184.215.14:9000\r\nUpgrade: websocket\r\n\r\n",
        "CONNECT [2606:2800:21f:cb07:6820:80da:af6b:8b2c]:22 HTTP/1.1\r\n\r\n",
    ],
)
def test_a_port_fetch_would_refuse_is_refused_and_recorded(proxy: GuardProxy, head: str) -> None:
    proxy.log.take()
    assert ask(proxy, head).startswith("HTTP/1.1 403")
    [refusal] = proxy.log.take()
    assert "port" in refusal.reason


def test_an_extra_port_the_deployment_allows_is_not_refused_for_its_port(
    proxy: GuardProxy, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_policy(monkeypatch, AddressPolicy(extra_ports=frozenset({8443})))
    proxy.log.take()
    status = ask(proxy, "CONNECT 10.0.0.1:8443 HTTP/1.1\r\n\r\n")  # past the port rule, stopped by the address rule
    assert status.startswith("HTTP/1.1 403")
    [refusal] = proxy.log.take()
    assert "private address" in refusal.reason


@pytest.mark.parametrize("target", ["10.0.0.1", "[fd00::1]", "example.com:https", "10.0.0.1:"])
def test_a_connect_target_without_a_usable_port_is_answered_not_a_crash(proxy: GuardProxy, target: str) -> None:
    status = ask(proxy, f"CONNECT {target} HTTP/1.1\r\n\r\n")
    assert status.startswith(("HTTP/1.1 403", "HTTP/1.1 400")), status
