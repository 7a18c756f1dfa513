"""geo_admin1_list/get, geo_admin2_list/get: regions by admin code `CC.A1` / `CC.A1.A2`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from geo_service.entities import COLUMNS, to_entity
from geo_service.lookup import by_id
from geo_service.store import get_db
from mcp_platform.protocol.errors import ErrorCode, ToolError

if TYPE_CHECKING:
    from mcp_platform.contracts.geo import Admin1ListInput, Admin2ListInput, AdminGetInput
    from mcp_platform.runtime.service import ServiceContext


def _list(level: str, country_code: str, admin1_code: str | None, limit: int) -> dict[str, Any]:
    clause, params = ("AND e.admin1_code = ?", [admin1_code]) if admin1_code else ("", [])
    rows = get_db().all(
        f"SELECT {COLUMNS} FROM entity e WHERE e.entity_type = ? AND e.country_code = ? {clause}"
        " ORDER BY e.name LIMIT ?",
        [level, country_code, *params, limit],
    )
    if not rows:
        within = f"{country_code}.{admin1_code}" if admin1_code else country_code
        raise ToolError(f"no {level} regions of {within} in the geo database", ErrorCode.NOT_FOUND)
    return {"count": len(rows), "results": [to_entity(r) for r in rows]}


def _get(level: str, args: AdminGetInput) -> dict[str, Any]:
    db = get_db()
    if args.geoname_id is not None:
        return {level: to_entity(by_id(db, args.geoname_id, level), full=True)}
    cc, _, rest = (args.admin_code or "").partition(".")
    code = f"{cc.upper()}.{rest}"
    row = db.one(f"SELECT {COLUMNS} FROM entity e WHERE e.admin_code = ? AND e.entity_type = ?", (code, level))
    if row is None:
        shape = "CC.A1 (e.g. IT.03)" if level == "admin1" else "CC.A1.A2 (e.g. IT.07.RM)"
        raise ToolError(
            f"admin_code: no {level} has code {code!r}; {level} codes look like {shape}", ErrorCode.NOT_FOUND
        )
    return {level: to_entity(row, full=True)}


def admin1_list(args: Admin1ListInput, _ctx: ServiceContext) -> dict[str, Any]:
    return _list("admin1", args.country_code, None, args.limit)


def admin2_list(args: Admin2ListInput, _ctx: ServiceContext) -> dict[str, Any]:
    return _list("admin2", args.country_code, args.admin1_code, args.limit)


def admin1_get(args: AdminGetInput, _ctx: ServiceContext) -> dict[str, Any]:
    return _get("admin1", args)


def admin2_get(args: AdminGetInput, _ctx: ServiceContext) -> dict[str, Any]:
    return _get("admin2", args)
