"""herbal_status: what the database was built from."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from herbal_service.store import FULL_BUILD, TERMS, get_db
from mcp_platform.contracts._data import NOT_MEDICAL_ADVICE

if TYPE_CHECKING:
    from mcp_platform.contracts._common import StatusInput
    from mcp_platform.runtime.service import ServiceContext


def status(args: StatusInput, ctx: ServiceContext) -> dict[str, Any]:
    db = get_db()
    tables = [{"table": name, **info} for name, info in db.tables.items()]
    out: dict[str, Any] = {
        "ok": True,
        "tables": tables,
        "missing_tables": db.missing_tables,
        "herbs": int(db.meta.get("herbs", "0")),
        "complete": not db.missing_tables,
        "data_version": db.meta.get("data_version", ""),
        "built_at": db.meta.get("built_at", ""),
        "schema_version": db.meta.get("schema_version", ""),
        "notice": f"{NOT_MEDICAL_ADVICE} {TERMS}",
    }
    if db.missing_tables:
        out["how_to_build"] = FULL_BUILD[0].upper() + FULL_BUILD[1:] + "."
    return out
