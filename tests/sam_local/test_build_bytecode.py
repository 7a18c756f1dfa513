"""What `make build` ships carries bytecode for the runtime, so a cold start in AWS compiles nothing.

Run by `make test-sam-local` right after its `sam build` and the compile step (Makefile `SAM_BUILD`):
remove that step and this fails, as `sam build` alone writes no `.pyc`.
"""

from __future__ import annotations

import importlib.util
import struct
from pathlib import Path

import pytest

pytestmark = pytest.mark.sam_local

BUILD = Path(__file__).resolve().parents[2] / ".aws-sam" / "build"
CHECKED_HASH = 0b11
"""PEP 552 flags: hash-based, checked against the source on import."""


@pytest.mark.parametrize(
    ("artefact", "module"),
    [
        ("RouterFunction", "mcp_router/gateway.py"),
        ("CommonLayer", "python/mcp_platform/runtime/service.py"),
        ("CommonLayer", "python/botocore/client.py"),
        ("CommonLayer", "python/pydantic/main.py"),
        ("HelloFunction", "hello_service/app.py"),
    ],
)
def test_the_build_carries_checked_bytecode_for_python_3_13(artefact: str, module: str) -> None:
    source = BUILD / artefact / module
    assert source.is_file(), f"{source} is not in the build: run `make test-sam-local` (it builds first)"
    cached = Path(importlib.util.cache_from_source(str(source)))
    assert cached.is_file(), f"no bytecode for {module} in {artefact}: the compile step after `sam build` is gone"
    header = cached.read_bytes()[:16]
    assert header[:4] == importlib.util.MAGIC_NUMBER, "bytecode for another Python than the runtime's 3.13"
    assert struct.unpack("<I", header[4:8])[0] == CHECKED_HASH
