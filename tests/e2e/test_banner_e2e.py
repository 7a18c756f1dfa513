"""Every command the `make dev` banner prints works as pasted (issue 39, item 6).

The banner is read from the running server's own output, and each command runs in a plain shell:
another folder, no LOCAL_AWS_PORT exported, no virtualenv on the PATH, as a user's new terminal has.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from typing import Any

import pytest

from tests.e2e.conftest import ROOT

pytestmark = pytest.mark.e2e

COMMAND = re.compile(r"^  (try|admin) +(.+)$", re.MULTILINE)


def _plain_shell_env() -> dict[str, str]:
    """The environment of a fresh terminal: none of make dev's settings, no virtualenv."""
    env = {k: v for k, v in os.environ.items() if k not in ("LOCAL_AWS_PORT", "VIRTUAL_ENV", "PYTHONPATH")}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if ".venv" not in p)
    return env


def test_each_banner_command_works_as_pasted(local_server: Any) -> None:
    banner = (ROOT / ".e2e-server.log").read_text()
    commands = dict(COMMAND.findall(banner))
    assert set(commands) == {"try", "admin"}, banner[:2000]
    with tempfile.TemporaryDirectory() as elsewhere:
        ran = {
            label: subprocess.run(
                ["bash", "-c", command],
                cwd=elsewhere,
                env=_plain_shell_env(),
                capture_output=True,
                text=True,
                timeout=60,
                check=False,
            )
            for label, command in commands.items()
        }
    for label, done in ran.items():
        assert done.returncode == 0, (label, commands[label], done.stdout[-1000:], done.stderr[-1000:])
    assert '"result"' in ran["try"].stdout and "hello, world" in ran["try"].stdout
    assert "acct_dev" in ran["admin"].stdout
