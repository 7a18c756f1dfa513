"""Where the geo database comes from: a local path, or S3 to /tmp on first use (moto)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

import boto3
import pytest

from geo_service import store
from geo_service.settings import Settings
from mcp_platform.protocol.errors import ToolError

if TYPE_CHECKING:
    from collections.abc import Callable


def test_configured_source_prefers_a_path_then_s3(tmp_path: Path) -> None:
    assert store.configured_source(Settings(geo_db_path="/opt/geo/geo.sqlite")).path == Path("/opt/geo/geo.sqlite")
    s3 = store.configured_source(Settings(geo_db_bucket="b", geo_db_key="geo/v1.sqlite", geo_db_tmp_dir=str(tmp_path)))
    assert (s3.bucket, s3.key, s3.path) == ("b", "geo/v1.sqlite", tmp_path / "geo-v1.sqlite")
    assert store.configured_source(Settings()).path == store.DEFAULT_LOCAL_DB


def test_downloads_once_from_s3(aws: None, tmp_path: Path) -> None:
    client = boto3.client("s3")
    client.create_bucket(Bucket="geo-data")
    client.put_object(Bucket="geo-data", Key="geo/geo.sqlite", Body=b"SQLite format 3\x00 fake")
    source = store.Source(tmp_path / "geo.sqlite", "geo-data", "geo/geo.sqlite")
    assert store.fetch(source, client).read_bytes().startswith(b"SQLite format 3")
    client.delete_object(Bucket="geo-data", Key="geo/geo.sqlite")
    assert store.fetch(source, client) == source.path  # a warm container does not download again


def test_missing_object_is_an_upstream_error(aws: None, tmp_path: Path) -> None:
    client = boto3.client("s3")
    client.create_bucket(Bucket="geo-data")
    with pytest.raises(ToolError) as info:
        store.fetch(store.Source(tmp_path / "geo.sqlite", "geo-data", "nope"), client)
    assert info.value.code == "upstream_unavailable"
    assert not (tmp_path / "geo.part").exists() and not (tmp_path / "geo.sqlite").exists()


def test_missing_local_file_names_the_fix(tmp_path: Path) -> None:
    with pytest.raises(ToolError, match="make geo-db"):
        store.fetch(store.Source(tmp_path / "absent.sqlite"))


def test_a_database_of_another_layout_is_refused_clearly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reload_settings: Callable[[], None]
) -> None:
    old = tmp_path / "old.sqlite"
    with sqlite3.connect(old) as db:
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.execute("INSERT INTO meta VALUES ('schema_version', '1')")
    monkeypatch.setenv("GEO_DB_PATH", str(old))
    reload_settings()
    store.use_db(None)
    try:
        with pytest.raises(ToolError, match=f"has layout 1, this service needs {store.SCHEMA_VERSION}") as info:
            store.get_db()
    finally:
        store.use_db(None)
    assert info.value.code == "upstream_unavailable"
