"""The README's tool catalogue is generated from the registry and must be current."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_readme_catalogue_is_regenerated() -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_readme_catalog.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
