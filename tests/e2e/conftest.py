"""The local default (`python -m localdev`) on loopback, for the official mcp client.

One server per test session: free ports, a known dev key, plenty of credits and
a high rate limit so the suite exercises tools rather than limits, and the
test-only SSRF switch so services may fetch pages from local test servers.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

from email_support import LoopbackDns
from localdev import environment
from mcp_platform.auth.keys import generate_key

if TYPE_CHECKING:
    from collections.abc import Iterator

    from tests.support.recorded_apis import RecordedApis

ROOT = Path(__file__).resolve().parents[2]
BACKEND_SETTINGS = (
    "SEARCH_PROVIDER",
    "SEARCH_BASE_URL",
    "SEARCH_API_KEY_PARAMETER",
    "LLM_PROVIDER",
    "LLM_MODEL",
    "LLM_BASE_URL",
    "LLM_API_KEY_PARAMETER",
    "GEMINI_API_KEY_PARAMETER",
)


@dataclass(frozen=True)
class LocalServer:
    url: str
    """The /mcp endpoint."""
    api_key: str
    base: str
    aws_endpoint: str

    @property
    def url_with_key(self) -> str:
        """The endpoint with the key as URL credentials (Basic auth), for clients that take only a URL."""
        return self.url.replace("http://", f"http://dev:{self.api_key}@")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def running_local_server(settings: dict[str, str], log_name: str = ".e2e-server.log") -> Iterator[LocalServer]:
    """`python -m localdev` on free loopback ports with `settings` on top of the test environment."""
    port, aws_port, key = _free_port(), _free_port(), generate_key()
    # The server resolves template.yaml itself; the template values tests/conftest.py put into this
    # process (for in-process handlers) must not reach it as shell overrides.
    env = {k: v for k, v in os.environ.items() if k not in environment.template_names()}
    # A developer's shell may carry real endpoints or provider keys: the suite runs without them.
    for name in ("AWS_ENDPOINT_URL", "AWS_SESSION_TOKEN", *BACKEND_SETTINGS):
        env.pop(name, None)
    env.update(
        {
            **settings,
            "PORT": str(port),
            "LOCAL_AWS_PORT": str(aws_port),
            "DEV_API_KEY": key,
            "DEV_CREDITS": "100000",
            "RATE_LIMIT_PER_MINUTE": "100000",
            "DEV_RATE_LIMIT_PER_MINUTE": "100000",
            "SSRF_ALLOW_LOOPBACK": "1",
        }
    )
    log = open(ROOT / log_name, "w")
    proc = subprocess.Popen([sys.executable, "-m", "localdev"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"local server exited: {(ROOT / log_name).read_text()[-2000:]}")
            try:
                if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("local server did not start within 90 s")
            time.sleep(0.2)
        yield LocalServer(url=f"{base}/mcp", api_key=key, base=base, aws_endpoint=f"http://127.0.0.1:{aws_port}")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="session")
def loopback_dns() -> Iterator[LoopbackDns]:
    """The email tools' DNS: a loopback server with the test zones (tests/email_support.py)."""
    with LoopbackDns() as server:
        yield server


@pytest.fixture(scope="session")
def local_server(recorded_apis_server: RecordedApis, loopback_dns: LoopbackDns) -> Iterator[LocalServer]:
    # Every configured backend API (PubChem, RxNav, ...) answers from recordings on loopback, and the
    # email tools' DNS from the test zones.
    settings = {**recorded_apis_server.environment(), "DNS_NAMESERVERS": loopback_dns.address}
    with running_local_server(settings) as server:
        yield server
