"""`make dev` refuses unusable settings with one line saying what is expected, never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        ("DEV_API_KEY", "not-a-key", "DEV_API_KEY is malformed: a key is mcp_ followed by 43 URL-safe characters"),
        ("DEV_API_KEY", "mcp_" + "a" * 42 + "!", "DEV_API_KEY is malformed"),
        ("PORT", "30o0", "PORT must be a whole number, not '30o0'"),
    ],
)
def test_a_malformed_setting_is_one_line_and_exit_2(name: str, value: str, expected: str) -> None:
    env = {**os.environ, name: value}
    done = subprocess.run(
        [sys.executable, "-m", "localdev"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("make dev: ") and expected in lines[0]


@pytest.mark.parametrize(("env", "prefix"), [({}, ""), ({"LOCAL_AWS_PORT": "4660"}, "LOCAL_AWS_PORT=4660 ")])
def test_the_banner_admin_command_runs_from_any_shell(env: dict[str, str], prefix: str) -> None:
    """The virtualenv's mcp-admin by its full path; the store's port only when mcp-admin would not assume it."""
    from localdev.server import LocalPlatform

    command = LocalPlatform.from_env(env).admin_command()
    assert command == f"{prefix}{Path(sys.executable).parent / 'mcp-admin'} --local show acct_dev"


def test_make_dev_lets_local_testing_sign_up_more_than_the_template_allows() -> None:
    """Issue 39: the template's 5 sign-ups per address per hour tripped local testing; the shell still decides."""
    from localdev.server import DEV_SIGNUPS_PER_IP_PER_HOUR, LocalPlatform

    env: dict[str, str] = {}
    LocalPlatform.from_env(env).configure(env)
    assert env["SIGNUPS_PER_IP_PER_HOUR"] == str(DEV_SIGNUPS_PER_IP_PER_HOUR) and DEV_SIGNUPS_PER_IP_PER_HOUR > 5
    chosen = {"SIGNUPS_PER_IP_PER_HOUR": "2"}
    LocalPlatform.from_env(chosen).configure(chosen)
    assert chosen["SIGNUPS_PER_IP_PER_HOUR"] == "2"
