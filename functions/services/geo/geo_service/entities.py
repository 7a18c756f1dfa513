"""Rows → the published entity shape: nulls dropped, slim payload in lists, full payload in `*_get`."""

from __future__ import annotations

import json
from typing import Any

from geo_service.layout import SLIM_PAYLOAD_KEYS

COLUMNS = (
    "e.geoname_id, e.entity_type, e.name, e.ascii_name, e.iso2, e.iso3, e.country_code, e.place_kind,"
    " e.feature_code, e.admin_code, e.population, e.latitude, e.longitude, e.payload"
)
"""Select list every entity query uses (table alias `e`)."""
_FIELDS = ("geoname_id", "entity_type", "name", "ascii_name", "iso2", "iso3", "country_code", "place_kind",
           "feature_code", "admin_code", "population", "latitude", "longitude")  # fmt: skip
TYPE_ORDER_SQL = (
    "CASE e.entity_type WHEN 'city' THEN 0 WHEN 'place' THEN 1 WHEN 'country' THEN 2 WHEN 'marine' THEN 3"
    " WHEN 'admin1' THEN 4 ELSE 5 END"
)


def to_entity(row: Any, *, full: bool = False, **extra: Any) -> dict[str, Any]:
    """The entity of a row; `extra` (distance_km, similarity, ...) is appended."""
    out = {f: row[f] for f in _FIELDS if row[f] is not None}
    payload = json.loads(row["payload"])
    out["payload"] = payload if full else {k: v for k, v in payload.items() if k in SLIM_PAYLOAD_KEYS}
    out.update(extra)
    return out


def payload(row: Any) -> dict[str, Any]:
    return json.loads(row["payload"])
