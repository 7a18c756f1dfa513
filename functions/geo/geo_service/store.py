"""The read-only database: where it comes from and how it is opened.

`GEO_DB_PATH` names a local file (the local default and the tests). In AWS, `GEO_DB_BUCKET` and
`GEO_DB_KEY` name the database object; the first call of a cold container downloads it to
`/tmp` (kept for the container's life), unless `GEO_DB_PATH` points into a layer (`/opt/...`).
The file is opened `immutable`: SQLite takes no locks and never writes.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from botocore.config import Config

from geo_service.layout import SCHEMA_VERSION
from geo_service.settings import Settings, settings
from mcp_platform import aws
from mcp_platform.errors import ErrorCode, ToolError
from mcp_platform.observability import logger

try:  # A current SQLite with FTS5 (trigram), R*Tree and math functions, whatever the runtime ships.
    from pysqlite3 import dbapi2 as sqlite3
except ImportError:  # pragma: no cover - the local interpreter's SQLite is recent enough
    import sqlite3  # type: ignore[no-redef]

DEFAULT_LOCAL_DB = Path(__file__).resolve().parents[3] / "build" / "geo" / "geo-small.sqlite"


@dataclass(frozen=True)
class Source:
    path: Path
    bucket: str | None = None
    key: str | None = None


def configured_source(config: Settings) -> Source:
    """A database file named by GEO_DB_PATH, else the S3 object (downloaded to GEO_DB_TMP_DIR), else the local build."""
    if config.geo_db_path:
        return Source(Path(config.geo_db_path))
    if config.geo_db_bucket and config.geo_db_key:
        return Source(
            Path(config.geo_db_tmp_dir) / f"geo-{Path(config.geo_db_key).name}", config.geo_db_bucket, config.geo_db_key
        )
    return Source(DEFAULT_LOCAL_DB)


def fetch(source: Source, s3_client: Any = None) -> Path:
    """The database file on local disk, downloading it from S3 first when it is not there yet."""
    if source.path.exists() or source.bucket is None:
        if not source.path.exists():
            raise ToolError(
                f"geo database not found at {source.path}; build it with `make geo-db` or set GEO_DB_PATH",
                ErrorCode.UPSTREAM_UNAVAILABLE,
            )
        return source.path
    # boto3's managed transfer (parallel ranged GETs) for a file of several GB; imported only on this path.
    client = s3_client or aws.transfer_client("s3", Config(read_timeout=60))
    partial = source.path.with_suffix(".part")
    started = time.monotonic()
    try:
        client.download_file(source.bucket, source.key, str(partial))
    except Exception as exc:
        partial.unlink(missing_ok=True)
        logger.exception("geo database download failed")
        raise ToolError(
            "the geo database could not be loaded from S3; try again", ErrorCode.UPSTREAM_UNAVAILABLE
        ) from exc
    partial.replace(source.path)
    logger.info(
        "geo database downloaded",
        extra={"bytes": source.path.stat().st_size, "seconds": round(time.monotonic() - started, 2)},
    )
    return source.path


class GeoDb:
    """One read-only connection, shared by every call of a warm container."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._conn = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True, check_same_thread=False)
        self._conn.row_factory = sqlite3.Row
        self._conn.execute("PRAGMA cache_size=-65536")
        self._conn.execute("PRAGMA mmap_size=1073741824")
        self._lock = threading.Lock()

    def all(self, sql: str, params: Any = ()) -> list[Any]:
        with self._lock:
            return self._conn.execute(sql, params).fetchall()

    def one(self, sql: str, params: Any = ()) -> Any:
        with self._lock:
            return self._conn.execute(sql, params).fetchone()

    @cached_property
    def meta(self) -> dict[str, str]:
        return dict(self.all("SELECT key, value FROM meta"))

    def check_schema(self) -> None:
        """The queries need the layout this code's importer writes; an older file fails clearly, once."""
        built = self.meta.get("schema_version", "unknown")
        if built != SCHEMA_VERSION:
            raise ToolError(
                f"the geo database {self.path.name} has layout {built}, this service needs {SCHEMA_VERSION};"
                " rebuild it with the importer (make geo-db)",
                ErrorCode.UPSTREAM_UNAVAILABLE,
            )

    def meta_json(self, key: str, default: Any) -> Any:
        raw = self.meta.get(key)
        return json.loads(raw) if raw else default


_db: GeoDb | None = None
_db_lock = threading.Lock()


def get_db() -> GeoDb:
    """The container's database, opened (and fetched from S3) on first use."""
    global _db  # noqa: PLW0603 - the container-wide connection, opened once under a lock
    if _db is None:
        with _db_lock:
            if _db is None:
                db = GeoDb(fetch(configured_source(settings())))
                db.check_schema()
                _db = db
    return _db


def use_db(db: GeoDb | None) -> None:
    """Point the service at another database (tests, benchmarks); None reopens the configured one."""
    global _db  # noqa: PLW0603 - the container-wide connection, opened once under a lock
    _db = db
