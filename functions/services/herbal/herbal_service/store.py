"""The herbal database: where it comes from (the common `readonly_db` rules) and what it holds.

`HERBAL_DB_PATH` names a local file (the local default and the tests, or a layer path under
`/opt`). In AWS, `HERBAL_DB_BUCKET` and `HERBAL_DB_KEY` name the database object, downloaded to
`/tmp` on a cold container's first call. Tools check the dump tables they need with `require`.
"""

from __future__ import annotations

import json
from functools import cached_property
from pathlib import Path
from typing import Any

from herbal_service.layout import LINK_TABLES, SCHEMA_VERSION
from herbal_service.settings import Settings, settings
from mcp_platform.contracts._data import NOT_MEDICAL_ADVICE
from mcp_platform.contracts.herbal import MISSING_TABLE
from mcp_platform.protocol.errors import ToolError
from mcp_platform.storage import readonly_db
from mcp_platform.storage.readonly_db import DbConfig, DbHolder, ReadOnlyDb, Source

DEFAULT_LOCAL_DB = Path(__file__).resolve().parents[4] / "build" / "herbal" / "herbal.sqlite"
CONFIG = DbConfig("herbal", "HERBAL", DEFAULT_LOCAL_DB, SCHEMA_VERSION, "`make herbal-db`")
FULL_BUILD = (
    "build the full database from the official dump (Duke-Source-CSV.zip, figshare article 24660351):"
    " `make herbal-db DUKE_DUMP=/path/to/Duke-Source-CSV.zip`, then deploy it as HerbalDbKey"
)
SOURCE_NAME = "USDA-ARS Dr. Duke's Phytochemical and Ethnobotanical Databases"
SOURCE_URL = "https://phytochem.nal.usda.gov/"
TERMS = "USDA: not to be used for self-diagnosis or self-medication."


class HerbalDb(ReadOnlyDb):
    """One read-only connection, plus what the build recorded about the dump it read."""

    @cached_property
    def tables(self) -> dict[str, dict[str, Any]]:
        """Dump tables the build imported: name → {rows, file}."""
        return {r["name"]: {"rows": r["rows"], "file": r["file"]} for r in self.all("SELECT * FROM source_table")}

    @cached_property
    def link_table(self) -> str | None:
        """The newest plant → chemical table imported (FARMACY_NEW, else FARMACY), if any."""
        return next((t for t in LINK_TABLES if t in self.tables), None)

    def has(self, table: str) -> bool:
        return table in self.tables

    def require(self, tool: str, *tables: str) -> None:
        """Refuse (uncharged) when a table this tool needs was not imported; "LINK" means either link table."""
        missing = []
        for table in tables:
            if table == "LINK":
                if self.link_table is None:
                    missing.append(" (or the older ".join(LINK_TABLES) + ")")
            elif not self.has(table):
                missing.append(table)
        if missing:
            raise ToolError(
                f"{tool} needs Dr. Duke's {' and '.join(missing)} table, which this deployment's herbal database"
                f" was built without (a partial dump); {FULL_BUILD}. herbal_status lists the tables it has.",
                MISSING_TABLE,
                missing_tables=[m.split(" ")[0] for m in missing],
            )

    def envelope(self, *tables: str | None) -> dict[str, Any]:
        """`source`, `retrieved_at`, `dataset` (naming the dump tables an answer was read from) and `notice`.

        "LINK" stands for the plant → chemical tables the build imported; None entries are skipped (a herb's
        `link_table` when it has no constituents).
        """
        used = [name for t in tables if t for name in (LINK_TABLES if t == "LINK" else (t,))]
        dataset = {
            "doi": "10.15482/USDA.ADC/1239279",
            "licence": "CC0 1.0 (public domain)",
            "terms": TERMS,
            "data_version": self.meta.get("data_version", ""),
            "tables": [t for t in used if self.has(t)],
        }
        return {
            "source": {"api": SOURCE_NAME, "url": SOURCE_URL},
            "retrieved_at": self.meta.get("built_at", ""),
            "dataset": dataset,
            "notice": NOT_MEDICAL_ADVICE,
        }

    @cached_property
    def missing_tables(self) -> list[str]:
        return list(json.loads(self.meta.get("missing_tables", "[]")))


def configured_source(given: Settings | None = None) -> Source:
    """Where the database is, as herbal's settings (default: the container's) say."""
    s = settings() if given is None else given
    return readonly_db.configured_source(
        CONFIG, path=s.herbal_db_path, bucket=s.herbal_db_bucket, key=s.herbal_db_key, tmp_dir=s.herbal_db_tmp_dir
    )


_holder = DbHolder(CONFIG, HerbalDb, configured_source)


def get_db() -> HerbalDb:
    """The container's database, opened (and fetched from S3) on first use."""
    return _holder.get()


def use_db(db: HerbalDb | None) -> None:
    """Point the service at another database (tests, benchmarks); None reopens the configured one."""
    _holder.use(db)
