"""geo_places_search, geo_airport_lookup, geo_rank_places: places ranked by elevation."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from geo_service import lookup
from geo_service.entities import COLUMNS, to_entity
from geo_service.spatial import locate, nearby_result
from geo_service.store import get_db
from mcp_platform.protocol.errors import ErrorCode, ToolError

if TYPE_CHECKING:
    from mcp_platform.contracts.geo import AirportLookupInput, PlacesSearchInput, RankPlacesInput
    from mcp_platform.runtime.service import ServiceContext


def search_places(
    place_kind: str | None, country_code: str | None, query: str | None, min_elevation: float | None, limit: int
) -> list[dict[str, Any]]:
    # entity_type as a literal, not a parameter: the planner then picks the partial `place_*` indexes.
    where, params = lookup.Filters(None, country_code, place_kind).sql()
    if query is not None:
        where += " AND e.geoname_id IN (SELECT rowid FROM name_fts WHERE name_fts MATCH ?)"
        params.append(lookup.match_expression(query, prefix=True) or '""')
    if min_elevation is not None:
        where += " AND e.elevation >= ?"
        params.append(min_elevation)
    rows = get_db().all(
        f"SELECT {COLUMNS} FROM entity e WHERE e.entity_type = 'place'{where}"
        " ORDER BY e.elevation DESC, e.population DESC, e.geoname_id LIMIT ?",  # NULL sorts last in DESC
        [*params, limit],
    )
    if not rows:
        given = {"place_kind": place_kind, "country_code": country_code, "query": query, "min_elevation": min_elevation}
        text = ", ".join(f"{k}={v}" for k, v in given.items() if v is not None) or "no filters"
        raise ToolError(f"no place matches {text}; loosen a filter", ErrorCode.NOT_FOUND)
    return [to_entity(r) for r in rows]


def places_search(args: PlacesSearchInput, _ctx: ServiceContext) -> dict[str, Any]:
    results = search_places(args.place_kind, args.country_code, args.query, args.min_elevation, args.limit)
    return {"count": len(results), "results": results}


def rank_places(args: RankPlacesInput, _ctx: ServiceContext) -> dict[str, Any]:
    results = search_places(args.place_kind, args.country_code, None, None, args.limit)
    return {"place_kind": args.place_kind, "count": len(results), "results": results}


def airport_lookup(args: AirportLookupInput, _ctx: ServiceContext) -> dict[str, Any]:
    db = get_db()
    for column, code in (("iata", args.iata), ("icao", args.icao)):
        if code is not None:
            rows = db.all(f"SELECT {COLUMNS} FROM entity e WHERE e.{column} = ? LIMIT ?", (code, args.limit))
            if not rows:
                raise ToolError(f"{column}: no airport has the code {code!r}", ErrorCode.NOT_FOUND)
            return {"results": [to_entity(r) for r in rows]}
    if args.near_query is not None:
        center = locate(db, None, args.near_query, "near_query")
        return nearby_result(center, args.radius_km, lookup.Filters("place", None, "airport"), args.limit)
    return {"results": search_places("airport", args.country_code, args.query, None, args.limit)}
