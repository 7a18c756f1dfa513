"""`make sam-local` (python -m localdev.sam_local) on loopback, for the official mcp client.

Run by `make test-sam-local` (and .ci/run), which starts the Docker engine, builds
the invoke image and runs `sam build` first, passing SAM and INVOKE_IMAGE. Without
an engine this fails: the deployed path is never silently left untested.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

from mcp_platform.auth.keys import generate_key

if TYPE_CHECKING:
    from collections.abc import Iterator

ROOT = Path(__file__).resolve().parents[2]
LOG = ROOT / ".sam-local-e2e.log"
# The router container starts on the first request (SAM builds its image layer then): minutes on a busy machine.
READY_SECONDS = 300


@dataclass(frozen=True)
class SamLocalServer:
    url: str
    """The /mcp endpoint of `sam local start-api`."""
    api_key: str
    aws_endpoint: str
    """The local store, on loopback."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _log_tail() -> str:
    return LOG.read_text(errors="replace")[-3000:] if LOG.exists() else ""


@pytest.fixture(scope="session")
def sam_local() -> Iterator[SamLocalServer]:
    missing = [name for name in ("SAM", "INVOKE_IMAGE") if not os.environ.get(name)]
    if missing:
        pytest.fail(f"{', '.join(missing)} not set: run `make test-sam-local` (it builds and passes them)")
    engine = subprocess.run(["docker", "info"], capture_output=True, text=True, check=False)
    if engine.returncode != 0:
        pytest.fail(f"no Docker engine answers (scripts/sam_local/engine.sh starts one): {engine.stderr.strip()}")
    port, aws_port, lambda_port, key = _free_port(), _free_port(), _free_port(), generate_key()
    env = {
        **os.environ,
        "PORT": str(port),
        "LOCAL_AWS_PORT": str(aws_port),
        "LAMBDA_PORT": str(lambda_port),
        "DEV_API_KEY": key,
    }
    for name in ("AWS_ENDPOINT_URL", "AWS_SESSION_TOKEN", "AWS_PROFILE"):
        env.pop(name, None)
    with LOG.open("w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "localdev.sam_local"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + READY_SECONDS
            while True:
                if proc.poll() is not None:
                    pytest.fail(f"make sam-local exited with {proc.returncode}:\n{_log_tail()}")
                try:
                    # /health goes through start-api and the router's container, as /mcp does.
                    if httpx.get(f"{base}/health", timeout=120).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if time.monotonic() > deadline:
                    pytest.fail(f"sam local start-api did not answer /health within {READY_SECONDS} s:\n{_log_tail()}")
                time.sleep(1)
            yield SamLocalServer(url=f"{base}/mcp", api_key=key, aws_endpoint=f"http://127.0.0.1:{aws_port}")
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
