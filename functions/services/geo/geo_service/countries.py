"""geo_country_get, geo_country_list, geo_country_neighbours, geo_country_capital."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from geo_service.entities import COLUMNS, payload, to_entity
from geo_service.lookup import by_id
from geo_service.store import GeoDb, get_db
from mcp_platform.protocol.errors import ErrorCode, ToolError

if TYPE_CHECKING:
    from mcp_platform.contracts.geo import CountryGetInput, CountryInput, CountryListInput
    from mcp_platform.runtime.service import ServiceContext


def country_row(db: GeoDb, iso2: str) -> Any:
    row = db.one(f"SELECT {COLUMNS} FROM entity e WHERE e.iso2 = ? AND e.entity_type = 'country'", (iso2,))
    if row is None:
        raise ToolError(f"iso2: no country has the code {iso2!r}; geo_country_list lists them", ErrorCode.NOT_FOUND)
    return row


def country_get(args: CountryGetInput, _ctx: ServiceContext) -> dict[str, Any]:
    db = get_db()
    row = by_id(db, args.geoname_id, "country") if args.geoname_id is not None else country_row(db, args.iso2 or "")
    return {"country": to_entity(row, full=True)}


def country_list(args: CountryListInput, _ctx: ServiceContext) -> dict[str, Any]:
    clause, params = ("AND e.continent_code = ?", [args.continent_code]) if args.continent_code else ("", [])
    rows = get_db().all(
        f"SELECT {COLUMNS} FROM entity e WHERE e.entity_type = 'country' {clause} ORDER BY e.name LIMIT ?",
        [*params, args.limit],
    )
    if not rows:
        raise ToolError(f"continent_code: no countries on {args.continent_code}", ErrorCode.NOT_FOUND)
    return {"count": len(rows), "results": [to_entity(r) for r in rows]}


def _ref(row: Any) -> dict[str, Any]:
    return {k: row[k] for k in ("geoname_id", "name", "iso2", "iso3") if row[k] is not None}


def neighbours(args: CountryInput, _ctx: ServiceContext) -> dict[str, Any]:
    db = get_db()
    country = country_row(db, args.iso2)
    codes = payload(country).get("neighbours", [])
    rows = db.all(
        f"SELECT {COLUMNS} FROM entity e WHERE e.entity_type = 'country'"
        f" AND e.iso2 IN ({','.join('?' * len(codes))}) ORDER BY e.name",
        codes,
    ) if codes else []  # fmt: skip
    out: dict[str, Any] = {"country": _ref(country), "neighbours": [to_entity(r) for r in rows]}
    if not rows:
        out["note"] = f"{country['name']} has no land neighbours in GeoNames"
    return out


def capital(args: CountryInput, _ctx: ServiceContext) -> dict[str, Any]:
    db = get_db()
    country = country_row(db, args.iso2)
    facts = payload(country)
    if "capital_geoname_id" not in facts:
        named = f" (GeoNames names {facts['capital_name']!r}, not in this database)" if "capital_name" in facts else ""
        raise ToolError(f"{country['name']} has no capital city in the geo database{named}", ErrorCode.NOT_FOUND)
    city = by_id(db, facts["capital_geoname_id"])
    return {
        "country": _ref(country),
        "capital_name": facts.get("capital_name", city["name"]),
        "capital": to_entity(city, full=True),
    }
