"""The code base stays within the rule set STYLE.md asks for (ruff, configured in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RUFF = Path(sys.executable).with_name("ruff")


def test_ruff_check_passes() -> None:
    run = subprocess.run([str(RUFF), "check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout[-4000:]


def test_ruff_format_is_applied() -> None:
    run = subprocess.run(
        [str(RUFF), "format", "--check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stdout[-4000:]
