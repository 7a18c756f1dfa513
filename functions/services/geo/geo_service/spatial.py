"""geo_distance and geo_nearby: haversine (R = 6371 km); countries are measured from their capital."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from geo_service import lookup
from geo_service.entities import COLUMNS, payload, to_entity
from geo_service.geometry import EARTH_RADIUS_KM, bounding_boxes, haversine_km
from geo_service.kinds import spatial_class_range
from geo_service.store import GeoDb, get_db
from mcp_platform.protocol.errors import ErrorCode, ToolError

if TYPE_CHECKING:
    from mcp_platform.contracts.geo import DistanceInput, NearbyInput
    from mcp_platform.runtime.service import ServiceContext

_DISTANCE_SQL = (
    f"2 * {EARTH_RADIUS_KM} * asin(min(1.0, sqrt(pow(sin(radians(r.latitude - :lat) / 2), 2)"
    " + cos(radians(:lat)) * cos(radians(r.latitude)) * pow(sin(radians(r.longitude - :lon) / 2), 2))))"
)
"""Haversine from the R*Tree's auxiliary (exact, double) coordinates: no `entity` row is read to measure."""


@dataclass(frozen=True)
class Point:
    latitude: float
    longitude: float
    coords_from: str
    """`self`, `capital` (a country measured from its capital) or `input` (coordinates given)."""
    row: Any = None

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"latitude": self.latitude, "longitude": self.longitude, "coords_from": self.coords_from}
        if self.row is not None:
            out = {"geoname_id": self.row["geoname_id"], "name": self.row["name"],
                   "entity_type": self.row["entity_type"], **out}  # fmt: skip
        return out


def locate(db: GeoDb, geoname_id: int | None, query: str | None, what: str) -> Point:
    """The coordinates of an entity given by id or name; a country stands at its capital."""
    row = lookup.by_id_or_name(db, geoname_id, query, None, what)
    if row["entity_type"] == "country" and (capital_id := payload(row).get("capital_geoname_id")):
        capital = lookup.by_id(db, capital_id)
        return Point(capital["latitude"], capital["longitude"], "capital", row)
    if row["latitude"] is None or row["longitude"] is None:
        raise ToolError(f"{what}: {row['name']} ({row['entity_type']}, geoname_id {row['geoname_id']}) has no "
                        "coordinates in the geo database; pick another entity", ErrorCode.NOT_FOUND)  # fmt: skip
    return Point(row["latitude"], row["longitude"], "self", row)


def distance(args: DistanceInput, _ctx: ServiceContext) -> dict[str, Any]:
    db = get_db()
    a = locate(db, args.from_id, args.from_query, "from_query" if args.from_query else "from_id")
    b = locate(db, args.to_id, args.to_query, "to_query" if args.to_query else "to_id")
    km = haversine_km(a.latitude, a.longitude, b.latitude, b.longitude)
    return {"distance_km": round(km, 3), "from": a.describe(), "to": b.describe()}


def within(db: GeoDb, center: Point, radius_km: float, filters: lookup.Filters, limit: int) -> list[dict[str, Any]]:
    """Entities within `radius_km` of `center`, nearest first: the R*Tree picks candidates, SQL measures.

    Without filters it starts with a small circle and widens it (x4) until it holds `limit` hits or
    reaches `radius_km`: whatever lies outside a circle is farther than everything inside, so the
    answer is exact while a dense 500 km circle is never measured in full. With a filter, hits are
    sparse and widening would only repeat the scan, so the full circle is measured once.
    """
    unfiltered = filters == lookup.Filters()
    radius = min(radius_km, max(1.0, radius_km / 64)) if unfiltered else radius_km
    while True:
        hits = _within(db, center, radius, filters, limit)
        if len(hits) >= limit or radius >= radius_km:
            return hits
        radius = min(radius_km, radius * 4)


def _within(db: GeoDb, center: Point, radius_km: float, filters: lookup.Filters, limit: int) -> list[dict[str, Any]]:
    """One circle: the R*Tree picks the filter's classes in the bounding box(es) and measures them; only
    the `limit` nearest are then read from `entity` (their payloads are the costly part of a row)."""
    if filters.country_code is not None:
        raise ValueError("a radius search filters by entity_type and place_kind only")
    classes = spatial_class_range(filters.entity_type, filters.place_kind)
    if classes is None:
        return []
    exclude = center.row["geoname_id"] if center.row is not None else -1
    hits: list[dict[str, Any]] = []
    for min_lat, max_lat, min_lon, max_lon in bounding_boxes(center.latitude, center.longitude, radius_km):
        rows = db.all(
            f"SELECT {COLUMNS}, n.d FROM (SELECT r.id, {_DISTANCE_SQL} AS d FROM entity_rtree r"
            " WHERE r.min_class >= :min_class AND r.max_class <= :max_class AND r.min_lat >= :min_lat"
            " AND r.max_lat <= :max_lat AND r.min_lon >= :min_lon AND r.max_lon <= :max_lon AND r.id != :exclude"
            " AND d <= :radius ORDER BY d, r.id LIMIT :limit) n JOIN entity e ON e.geoname_id = n.id"
            " ORDER BY n.d, n.id",
            {"lat": center.latitude, "lon": center.longitude, "min_class": classes[0], "max_class": classes[1],
             "min_lat": min_lat, "max_lat": max_lat, "min_lon": min_lon, "max_lon": max_lon, "exclude": exclude,
             "radius": radius_km, "limit": limit},
        )  # fmt: skip
        hits.extend(to_entity(r, distance_km=round(r["d"], 3)) for r in rows)
    hits.sort(key=lambda e: e["distance_km"])
    return hits[:limit]


def nearby_result(center: Point, radius_km: float, filters: lookup.Filters, limit: int) -> dict[str, Any]:
    results = within(get_db(), center, radius_km, filters, limit)
    if not results:
        where = center.row["name"] if center.row is not None else f"({center.latitude}, {center.longitude})"
        raise ToolError(f"nothing{_kind(filters)} within {radius_km} km of {where}; widen radius_km (max 500)",
                        ErrorCode.NOT_FOUND)  # fmt: skip
    return {"center": center.describe(), "radius_km": radius_km, "count": len(results), "results": results}


def _kind(filters: lookup.Filters) -> str:
    return f" of kind {filters.place_kind or filters.entity_type}" if filters.place_kind or filters.entity_type else ""


def nearby(args: NearbyInput, _ctx: ServiceContext) -> dict[str, Any]:
    if args.latitude is not None and args.longitude is not None:
        center = Point(args.latitude, args.longitude, "input")
    else:
        what = "center_id" if args.center_id is not None else "center_query"
        center = locate(get_db(), args.center_id, args.center_query, what)
    filters = lookup.Filters(args.entity_type, None, args.place_kind)
    return nearby_result(center, args.radius_km, filters, args.limit)
