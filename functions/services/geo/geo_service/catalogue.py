"""geo_status and geo_place_kinds: what the database holds."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from geo_service.store import get_db
from mcp_platform.contracts.geo import ENTITY_TYPES, PLACE_KINDS, NoArgs

if TYPE_CHECKING:
    from mcp_platform.contracts._common import StatusInput
    from mcp_platform.runtime.service import ServiceContext


def status(_args: StatusInput, _ctx: ServiceContext) -> dict[str, Any]:
    """Counts come from the importer's meta table: no scan of the entity table per call."""
    db = get_db()
    db.one("SELECT 1 FROM entity LIMIT 1")
    return {
        "ok": True,
        "read_only": True,
        "counts": db.meta_json("counts", {}),
        "place_kinds": PLACE_KINDS,
        "place_kind_counts": db.meta_json("place_kind_counts", {}),
        "data_version": db.meta.get("data_version", "unknown"),
        "built_at": db.meta.get("built_at", "unknown"),
        "sources": db.meta_json("sources", []),
        "has_vectors": bool(db.one("SELECT COUNT(*) FROM vectors WHERE length(ids) > 0")[0]),
    }


def place_kinds(_args: NoArgs, _ctx: ServiceContext) -> dict[str, Any]:
    return {"entity_types": ENTITY_TYPES, "place_kinds": PLACE_KINDS}
