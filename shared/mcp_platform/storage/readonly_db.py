"""Read-only SQLite databases built by an importer and shipped beside a service (geo, herbal).

`<PREFIX>_DB_PATH` names a local file (the local default and the tests, or a layer under `/opt`).
In AWS, `<PREFIX>_DB_BUCKET` and `<PREFIX>_DB_KEY` name the database object: the first call of a
cold container downloads it to `/tmp` (kept for the container's life). The values are fields of
the service's settings, which hand them to `configured_source`. The file is opened
`immutable`: SQLite takes no locks and never writes. A database of another layout than the
service's code expects is refused with one clear message naming how to rebuild it.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcp_platform.protocol.errors import ErrorCode, ToolError
from mcp_platform.runtime.observability import logger
from mcp_platform.storage import aws

if TYPE_CHECKING:
    from collections.abc import Callable

try:  # A current SQLite with FTS5 (trigram), R*Tree and math functions, whatever the runtime ships.
    from pysqlite3 import dbapi2 as sqlite3  # type: ignore[import-not-found, import-untyped, unused-ignore]
except ImportError:  # pragma: no cover - the local interpreter's SQLite is recent enough
    import sqlite3

_CHUNK = 8 * 1024 * 1024
"""Bytes read from S3 per write: the database streams to disk, never whole into memory."""


@dataclass(frozen=True)
class DbConfig:
    """What a service says about its database: its name, where it lives locally, how to build it."""

    name: str
    """Human name used in messages, e.g. "geo"."""
    env_prefix: str
    """`GEO`: the settings are GEO_DB_PATH, GEO_DB_BUCKET, GEO_DB_KEY (named in messages)."""
    default_path: Path
    schema_version: str
    build_hint: str
    """How an operator builds the file, e.g. "`make geo-db`"."""


@dataclass(frozen=True)
class Source:
    path: Path
    bucket: str | None = None
    key: str | None = None


def configured_source(config: DbConfig, *, path: str, bucket: str, key: str, tmp_dir: str) -> Source:
    """A path wins; else bucket and key (downloaded into `tmp_dir`); else the local default."""
    if path:
        return Source(Path(path))
    if bucket and key:
        return Source(Path(tmp_dir) / f"{config.name}-{Path(key).name}", bucket, key)
    return Source(config.default_path)


def building_marker(path: Path) -> Path:
    """The file that says `path` is being built (make dev builds the geo database after it starts serving)."""
    return path.with_name(path.name + ".building")


def fetch(config: DbConfig, source: Source, s3_client: Any = None) -> Path:
    """The database file on local disk, downloading it from S3 first when it is not there yet."""
    if source.path.exists():
        return source.path
    if source.bucket is None and building_marker(source.path).exists():
        raise ToolError(
            f"the {config.name} database is being built (make dev's first run builds it after starting, "
            "about 1-2 minutes); retry shortly",
            ErrorCode.UPSTREAM_UNAVAILABLE,
        )
    if source.bucket is None:
        raise ToolError(
            f"{config.name} database not found at {source.path}; build it with {config.build_hint}"
            f" or set {config.env_prefix}_DB_PATH",
            ErrorCode.UPSTREAM_UNAVAILABLE,
        )
    client = s3_client or aws.client("s3")
    partial = source.path.with_suffix(".part")
    started = time.monotonic()
    try:
        body = client.get_object(Bucket=source.bucket, Key=source.key)["Body"]
        with partial.open("wb") as out:
            while chunk := body.read(_CHUNK):
                out.write(chunk)
    except Exception as exc:
        partial.unlink(missing_ok=True)
        logger.exception(f"{config.name} database download failed")
        raise ToolError(
            f"the {config.name} database could not be loaded from S3; try again", ErrorCode.UPSTREAM_UNAVAILABLE
        ) from exc
    partial.replace(source.path)
    logger.info(
        f"{config.name} database downloaded",
        extra={"bytes": source.path.stat().st_size, "seconds": round(time.monotonic() - started, 2)},
    )
    return source.path


def write_atomically[R](out: Path, script: str, fill: Callable[[Any], R]) -> R:
    """Create `out` with `script`, let `fill(connection)` load it, compact it, then move it into place.

    The build goes to `out.tmp`: a service opening `out` meanwhile sees the old file or the new one,
    never half of one. Returns what `fill` returns.
    """
    tmp = out.with_suffix(out.suffix + ".tmp")
    tmp.unlink(missing_ok=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(tmp)
    db.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;" + script)
    try:
        result = fill(db)
        db.commit()
        db.execute("VACUUM")
    finally:
        db.close()
    tmp.replace(out)
    return result


class ReadOnlyDb:
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
            rows: list[Any] = self._conn.execute(sql, params).fetchall()
        return rows

    def one(self, sql: str, params: Any = ()) -> Any:
        with self._lock:
            return self._conn.execute(sql, params).fetchone()

    @cached_property
    def meta(self) -> dict[str, str]:
        return dict(self.all("SELECT key, value FROM meta"))

    def meta_json(self, key: str, default: Any) -> Any:
        raw = self.meta.get(key)
        return json.loads(raw) if raw else default

    def check_schema(self, config: DbConfig) -> None:
        """The queries need the layout this code's importer writes; an older file fails clearly, once."""
        built = self.meta.get("schema_version", "unknown")
        if built != config.schema_version:
            raise ToolError(
                f"the {config.name} database {self.path.name} has layout {built}, this service needs"
                f" {config.schema_version}; rebuild it with the importer ({config.build_hint})",
                ErrorCode.UPSTREAM_UNAVAILABLE,
            )


class DbHolder[T: ReadOnlyDb]:
    """The container's database, opened (and fetched from S3) on first use; tests may swap it."""

    def __init__(self, config: DbConfig, opener: Callable[[Path], T], source: Callable[[], Source]) -> None:
        self.config = config
        self._opener = opener
        self._source = source
        self._db: T | None = None
        self._lock = threading.Lock()

    def get(self) -> T:
        if self._db is None:
            with self._lock:
                if self._db is None:
                    db = self._opener(fetch(self.config, self._source()))
                    db.check_schema(self.config)
                    self._db = db
        return self._db

    def use(self, db: T | None) -> None:
        """Point the service at another database (tests, benchmarks); None reopens the configured one."""
        self._db = db
