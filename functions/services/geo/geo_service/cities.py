"""geo_cities_search, geo_coastal_cities, geo_region_cities, geo_nearest_marine, geo_marine_get."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from geo_service import lookup
from geo_service.entities import COLUMNS, payload, to_entity
from geo_service.store import get_db
from mcp_platform.protocol.errors import ErrorCode, ToolError

if TYPE_CHECKING:
    from mcp_platform.contracts.geo import (
        CitiesSearchInput,
        CoastalCitiesInput,
        MarineGetInput,
        NearestMarineInput,
        RegionCitiesInput,
    )
    from mcp_platform.runtime.service import ServiceContext


@dataclass(frozen=True)
class CityFilter:
    country_code: str | None = None
    admin1_code: str | None = None
    min_population: int | None = None
    max_population: int | None = None
    coastal_category: str | None = None
    max_distance_to_coast_km: float | None = None
    is_capital: bool | None = None
    query: str | None = None


_CLAUSES = {
    "country_code": "e.country_code = ?",
    "admin1_code": "e.admin1_code = ?",
    "min_population": "e.population >= ?",
    "max_population": "e.population <= ?",
    "coastal_category": "e.coastal_category = ?",
    "max_distance_to_coast_km": "e.distance_to_coast_km <= ?",
    "is_capital": "e.is_capital = ?",
}


def search_cities(f: CityFilter, limit: int) -> list[dict[str, Any]]:
    """Cities matching every given filter, largest population first; not_found when none do."""
    clauses, params = ["e.entity_type = 'city'"], []
    for field, clause in _CLAUSES.items():
        if (value := getattr(f, field)) is not None:
            clauses.append(clause)
            params.append(int(value) if isinstance(value, bool) else value)
    if f.query is not None:
        match = lookup.match_expression(f.query, prefix=True)
        clauses.append("e.geoname_id IN (SELECT rowid FROM name_fts WHERE name_fts MATCH ?)")
        params.append(match or '""')
    rows = get_db().all(
        f"SELECT {COLUMNS} FROM entity e WHERE {' AND '.join(clauses)} ORDER BY e.population DESC LIMIT ?",
        [*params, limit],
    )
    if not rows:
        given = ", ".join(f"{k}={v}" for k, v in vars(f).items() if v is not None) or "no filters"
        raise ToolError(f"no city matches {given}; loosen a filter", ErrorCode.NOT_FOUND)
    return [to_entity(r) for r in rows]


def cities_search(args: CitiesSearchInput, _ctx: ServiceContext) -> dict[str, Any]:
    fields = args.model_dump(exclude={"limit"})
    results = search_cities(CityFilter(**fields), args.limit)
    return {"count": len(results), "results": results}


def coastal_cities(args: CoastalCitiesInput, _ctx: ServiceContext) -> dict[str, Any]:
    # A category alone means that category; the distance default only applies when no category is given.
    distance_given = "max_distance_to_coast_km" in args.model_fields_set or args.coastal_category is None
    f = CityFilter(
        country_code=args.country_code,
        admin1_code=args.admin1_code,
        max_population=args.max_population,
        coastal_category=args.coastal_category,
        max_distance_to_coast_km=args.max_distance_to_coast_km if distance_given else None,
    )
    results = search_cities(f, args.limit)
    return {"count": len(results), "results": results}


def region_cities(args: RegionCitiesInput, _ctx: ServiceContext) -> dict[str, Any]:
    f = CityFilter(args.country_code, args.admin1_code, args.min_population, args.max_population)
    results = search_cities(f, args.limit)
    return {"country_code": args.country_code, "admin1_code": args.admin1_code, "count": len(results),
            "results": results}  # fmt: skip


def nearest_marine(args: NearestMarineInput, _ctx: ServiceContext) -> dict[str, Any]:
    db = get_db()
    city = lookup.by_id_or_name(db, args.geoname_id, args.city_query, "city", "city_query")
    facts = payload(city)
    if "nearest_marine_geoname_id" not in facts:
        raise ToolError(
            f"{city['name']} has no sea, bay or gulf within 3000 km in the geo database", ErrorCode.NOT_FOUND
        )
    marine = lookup.by_id(db, facts["nearest_marine_geoname_id"], "marine")
    out = {
        "city": {k: city[k] for k in ("geoname_id", "name", "country_code", "latitude", "longitude")
                 if city[k] is not None},
        "nearest_marine_name": facts["nearest_marine_name"],
        "nearest_marine_distance_km": facts["nearest_marine_distance_km"],
        "coastal_category": facts.get("coastal_category", "inland"),
        "marine": to_entity(marine, full=True),
    }  # fmt: skip
    if "distance_to_coast_km" in facts:
        out["distance_to_coast_km"] = facts["distance_to_coast_km"]
    return out


def marine_get(args: MarineGetInput, _ctx: ServiceContext) -> dict[str, Any]:
    row = lookup.by_id_or_name(get_db(), args.geoname_id, args.query, "marine", "query")
    return {"marine": to_entity(row, full=True)}
