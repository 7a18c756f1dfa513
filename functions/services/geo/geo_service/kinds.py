"""How GeoNames feature codes map onto the service's entity types and place kinds.

The importer classifies every dump row with these tables; the service only reads the
result. Coastal categories are thresholds on the precomputed distance to the coast.
"""

from __future__ import annotations

from mcp_platform.contracts.geo import ENTITY_TYPES, PLACE_KINDS

PLACE_KIND_BY_FEATURE: dict[str, str] = {
    "T.HLL": "hill", "T.HLLS": "hill",
    "T.MT": "mountain", "T.MTS": "mountain",
    "T.PK": "peak", "T.PKS": "peak",
    "T.VLC": "volcano",
    "H.LK": "lake", "H.LKI": "lake", "H.LKN": "lake", "H.LKSL": "lake", "H.LKO": "lake",
    "H.LKS": "lakes", "H.LKSI": "lakes", "H.LKSN": "lakes",
    "H.RSV": "reservoir", "H.RSVI": "reservoir",
    "H.FLLS": "waterfall",
    "T.ISL": "island",
    "T.ISLS": "islands",
    "T.ATOL": "atoll",
    "S.AIRP": "airport", "S.AIRB": "airport", "S.AIRF": "airport",
    "S.AIRH": "heliport",
    "L.PRK": "park",
    "L.RESN": "nature_reserve",
    "L.RESW": "wildlife_reserve",
    "T.PASS": "pass",
    "S.RUIN": "ruin",
    "S.CSTL": "castle",
    "S.MUS": "museum",
    "S.MNMT": "monument",
    "L.OILF": "oilfield",
}  # fmt: skip
"""`class.code` → place_kind; every value is one of the 22 published kinds."""

MARINE_FEATURES = frozenset(
    {"H.SEA", "H.OCN", "H.BAY", "H.BAYS", "H.GULF", "H.STRT", "H.SD", "H.FJD", "H.COVE", "H.CHNM", "H.BGHT"}
)
COUNTRY_FEATURES = frozenset({"A.PCLI", "A.PCLD", "A.PCLF", "A.PCLS", "A.PCLIX", "A.PCL", "A.TERR"})
COAST_FEATURES = frozenset({"T.CST"})
"""Coastline points: used to precompute distance to the coast, never stored as entities."""

TYPE_RANK = {"city": 0, "place": 1, "country": 2, "marine": 3, "admin1": 4, "admin2": 5}
"""Resolution order among equally good name matches: cities before places before countries."""

SPATIAL_CLASSES: tuple[tuple[str, str | None], ...] = (
    ("city", None),
    *(("place", kind) for kind in PLACE_KINDS),
    ("country", None),
    ("marine", None),
    ("admin1", None),
    ("admin2", None),
)
"""(entity_type, place_kind) pairs numbered by position: the R*Tree's class dimension.

Places are split by kind and every entity type's classes are adjacent, so any entity_type /
place_kind filter is one range of classes and the R*Tree rejects other classes itself, without
reading their rows (an airport search in a city-dense circle no longer measures every city).
"""
_CLASS_NUMBER = {pair: i for i, pair in enumerate(SPATIAL_CLASSES)}


def spatial_class(entity_type: str, place_kind: str | None) -> int:
    return _CLASS_NUMBER[(entity_type, place_kind if entity_type == "place" else None)]


def spatial_class_range(entity_type: str | None, place_kind: str | None) -> tuple[int, int] | None:
    """The (lowest, highest) class a filter admits (None/None admits all); None when it admits none."""
    admitted = [i for i, (t, k) in enumerate(SPATIAL_CLASSES) if entity_type in (None, t) and place_kind in (None, k)]
    return (admitted[0], admitted[-1]) if admitted else None


COASTAL_LIMITS_KM = (("direct_coastal", 5.0), ("coastal", 15.0), ("near_coast", 50.0))


def coastal_category(distance_km: float | None) -> str:
    """`direct_coastal` (<= 5 km), `coastal` (<= 15), `near_coast` (<= 50), else `inland`."""
    if distance_km is not None:
        for name, limit in COASTAL_LIMITS_KM:
            if distance_km <= limit:
                return name
    return "inland"


assert set(PLACE_KIND_BY_FEATURE.values()) == set(PLACE_KINDS), "feature map must cover the 22 kinds"
assert set(TYPE_RANK) == set(ENTITY_TYPES)
