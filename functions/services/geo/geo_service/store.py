"""The geo database: where it comes from and how it is opened (the common `readonly_db` rules).

`GEO_DB_PATH` names a local file (the local default and the tests). In AWS, `GEO_DB_BUCKET` and
`GEO_DB_KEY` name the database object, downloaded to `/tmp` on a cold container's first call,
unless `GEO_DB_PATH` points into a layer (`/opt/...`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from geo_service.layout import SCHEMA_VERSION
from geo_service.settings import Settings, settings
from mcp_platform.storage import readonly_db
from mcp_platform.storage.readonly_db import DbConfig, DbHolder, ReadOnlyDb, Source

DEFAULT_LOCAL_DB = Path(__file__).resolve().parents[4] / "build" / "geo" / "geo-small.sqlite"
CONFIG = DbConfig("geo", "GEO", DEFAULT_LOCAL_DB, SCHEMA_VERSION, "`make geo-db`")

__all__ = ["SCHEMA_VERSION", "GeoDb", "Source", "configured_source", "fetch", "get_db", "use_db"]


def configured_source(given: Settings | None = None) -> Source:
    """Where the database is, as geo's settings (default: the container's) say."""
    s = settings() if given is None else given
    return readonly_db.configured_source(
        CONFIG, path=s.geo_db_path, bucket=s.geo_db_bucket, key=s.geo_db_key, tmp_dir=s.geo_db_tmp_dir
    )


def fetch(source: Source, s3_client: Any = None) -> Path:
    return readonly_db.fetch(CONFIG, source, s3_client)


class GeoDb(ReadOnlyDb):
    """One read-only connection to the geo database."""


_holder = DbHolder(CONFIG, GeoDb, configured_source)


def get_db() -> GeoDb:
    """The container's database, opened (and fetched from S3) on first use."""
    return _holder.get()


def use_db(db: GeoDb | None) -> None:
    """Point the service at another database (tests, benchmarks); None reopens the configured one."""
    _holder.use(db)
