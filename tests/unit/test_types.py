"""The common layer and the router type-check under mypy --strict (configured in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MYPY = Path(sys.executable).with_name("mypy")


def test_mypy_strict_passes_on_shared_and_the_router() -> None:
    run = subprocess.run([str(MYPY)], cwd=ROOT, capture_output=True, text=True, check=False, timeout=600)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
