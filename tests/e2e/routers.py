"""One more router instance (`python -m localdev --router-only`) over a running local store."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import httpx

from tests.e2e.conftest import _free_port

if TYPE_CHECKING:
    from collections.abc import Iterator

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def running_router(aws_port: int | str) -> Iterator[str]:
    """A router on a free port whose AWS requests go to `aws_port`; yields its /mcp endpoint."""
    port = _free_port()
    # The first instance's rate limit too (conftest): the limit is per account across instances.
    env = {**os.environ, "PORT": str(port), "LOCAL_AWS_PORT": str(aws_port), "RATE_LIMIT_PER_MINUTE": "100000"}
    env.pop("AWS_ENDPOINT_URL", None)
    proc = subprocess.Popen([sys.executable, "-m", "localdev", "--router-only"], cwd=ROOT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None and time.monotonic() < deadline, "router did not start"
            time.sleep(0.2)
        yield f"{base}/mcp"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
