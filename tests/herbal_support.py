"""The herbal test database: the real importer over tests/fixtures/herbal (what `make herbal-test-db` builds).

`ensure_test_db()` rebuilds it when the fixtures or the importer are newer than the file, so a plain
`pytest` run never tests a stale build. `build_db(out, *folders)` builds another from chosen folders.
"""

from __future__ import annotations

from pathlib import Path

from herbal_service.importer.build import Inputs, build

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "herbal"
DUMP = FIXTURES / "dump"
FULL_TABLES = FIXTURES / "full-tables"
TEST_DB = ROOT / "build" / "herbal" / "herbal-test.sqlite"
_INPUTS = [*FIXTURES.glob("*/*.csv"), *(ROOT / "functions" / "services" / "herbal" / "herbal_service").rglob("*.py")]


def build_db(out: Path, *sources: Path, version: str = "") -> Path:
    build(Inputs(sources=list(sources), data_version=version), out)
    return out


def ensure_test_db() -> Path:
    newest = max(p.stat().st_mtime for p in _INPUTS)
    if not TEST_DB.exists() or TEST_DB.stat().st_mtime < newest:
        build_db(TEST_DB, DUMP, FULL_TABLES, version="test extract (tests/fixtures/herbal)")
    return TEST_DB
