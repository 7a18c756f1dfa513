"""The first `make dev` serves before the geo database exists and says what it is doing (issue 39, item 5)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from mcp_platform.protocol.errors import ERRORS, ToolError
from mcp_platform.storage.readonly_db import DbConfig, Source, building_marker, fetch

ROOT = Path(__file__).resolve().parents[2]


def test_make_dev_does_not_wait_for_a_missing_geo_database(tmp_path: Path) -> None:
    missing = tmp_path / "geo-small.sqlite"
    dry = subprocess.run(
        ["make", "-n", "dev", f"GEO_DB={missing}", f"GEO_DB_PATH={missing}"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert "geo_build_db" not in dry.stdout and "-m localdev" in dry.stdout


def test_each_long_first_run_step_announces_itself() -> None:
    """pip, the geo database and Chromium each print what they do and how long it takes before starting."""
    makefile = (ROOT / "Makefile").read_text()
    for step in ("Python packages", "geo database", "Chromium"):
        assert f"==> {step}" in makefile, step


def test_a_database_being_built_is_a_retryable_error_that_says_so(tmp_path: Path) -> None:
    db = tmp_path / "geo-small.sqlite"
    config = DbConfig("geo", "GEO", db, "1", "`make geo-db`")
    building_marker(db).touch()
    with pytest.raises(ToolError) as info:
        fetch(config, Source(db))
    assert ERRORS[info.value.code].retryable and "being built" in info.value.message


def test_make_dev_builds_a_missing_geo_database_in_the_background(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from localdev import first_run

    started: list[list[str]] = []

    class Done:
        returncode = 0

    def run(command: list[str], **_kw: object) -> Done:
        started.append(command)
        assert building_marker(tmp_path / "geo.sqlite").exists()  # marked while it runs
        return Done()

    monkeypatch.setattr(first_run.subprocess, "run", run)
    thread = first_run.build_geo_db(tmp_path / "geo.sqlite")
    assert thread is not None
    thread.join(5)
    assert started and "geo-db" in started[0]
    assert not building_marker(tmp_path / "geo.sqlite").exists()
    (tmp_path / "geo.sqlite").touch()
    assert first_run.build_geo_db(tmp_path / "geo.sqlite") is None  # there: nothing to do
