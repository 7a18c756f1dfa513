"""Build the geo database from GeoNames dump files.

Stages: countries and admin codes; every allCountries-format row classified into city, place or
marine (country and admin rows only lend their coordinates, coast rows feed the coastal fields);
capitals; coastal fields for cities; then one pass that writes payloads, name keys, full-text and
trigram indexes, the R*Tree and the vectors. The result is compacted and meant to be opened read-only.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import numpy as np

from geo_service.importer import dumps
from geo_service.importer.coast import PointIndex
from geo_service.importer.vectors import DIM, VectorInput, vector
from geo_service.kinds import (
    COAST_FEATURES,
    COUNTRY_FEATURES,
    MARINE_FEATURES,
    PLACE_KIND_BY_FEATURE,
    TYPE_RANK,
    coastal_category,
    spatial_class,
)
from geo_service.layout import DDL, INDEXES, SCHEMA_VERSION
from geo_service.text import exact_key, fold
from mcp_platform.storage.readonly_db import write_atomically

if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Iterable
    from pathlib import Path

log = logging.getLogger("geo.importer")

MAX_COAST_KM = 200.0
"""Beyond this a city's distance to the coast is left unknown (and it is `inland`)."""
MAX_MARINE_KM = 3000.0
MAX_ALTERNATES = 200
"""Alternate names kept per entity (big cities have hundreds in many scripts)."""
_TYPE_ORDER = list(TYPE_RANK)


@dataclass
class Inputs:
    """Paths of the dump files; every list may name several files of the same format."""

    geonames: list[Path]
    country_info: Path
    admin1: list[Path] = field(default_factory=list)
    admin2: list[Path] = field(default_factory=list)
    alternate_names: list[Path] = field(default_factory=list)
    min_city_population: int = 0
    data_version: str = ""


def build(inputs: Inputs, out: Path) -> dict[str, int]:
    """Write the database to `out` (replaced if present); returns row counts per entity type."""
    return write_atomically(out, "PRAGMA page_size=8192;" + DDL, lambda db: _Importer(db, inputs).run())


class _Importer:
    def __init__(self, db: sqlite3.Connection, inputs: Inputs) -> None:
        self.db = db
        self.inputs = inputs
        self.countries = {c.iso2: c for c in dumps.read_country_info(inputs.country_info)}
        self.admin1 = {a.code: a for path in inputs.admin1 for a in dumps.read_admin_codes(path)}
        self.admin2 = {a.code: a for path in inputs.admin2 for a in dumps.read_admin_codes(path)}
        self.alternates: dict[int, dumps.AltNames] = {}
        for path in inputs.alternate_names:
            dumps.read_alternate_names(path, self.alternates)
        self.coords: dict[int, tuple[float, float, int]] = {}
        """Coordinates (and population) lent by country and admin rows, by geonameid."""
        self.coast: tuple[list[float], list[float]] = ([], [])
        self.seen_ids: set[int] = set()

    def run(self) -> dict[str, int]:
        for path in self.inputs.geonames:
            self._insert(self._stage_geonames(path))
        self._insert(self._stage_countries())
        self._insert(self._stage_admins())
        self.db.executescript(INDEXES)
        self._mark_capitals()
        self._coastal_fields()
        self._finish()
        self.db.execute("ANALYZE")
        counts = dict(self.db.execute("SELECT entity_type, COUNT(*) FROM entity GROUP BY 1").fetchall())
        self._meta(counts)
        return counts

    # ------------------------------------------------------------ staging
    def _stage_geonames(self, path: Path) -> Iterable[dict[str, Any]]:
        countries_by_id = {c.geoname_id for c in self.countries.values()}
        for row in dumps.read_geonames(path):
            if row.feature in COUNTRY_FEATURES or row.feature in ("A.ADM1", "A.ADM2"):
                if row.feature not in COUNTRY_FEATURES or row.geoname_id in countries_by_id:
                    self.coords[row.geoname_id] = (row.latitude, row.longitude, row.population)
                continue
            if row.feature in COAST_FEATURES:
                self.coast[0].append(row.latitude)
                self.coast[1].append(row.longitude)
                continue
            entity_type, place_kind = _classify(row)
            if entity_type is None or (entity_type == "city" and row.population < self.inputs.min_city_population):
                continue
            yield self._geoname_row(row, entity_type, place_kind)

    def _geoname_row(self, row: dumps.Geoname, entity_type: str, place_kind: str | None) -> dict[str, Any]:
        alt = self.alternates.get(row.geoname_id, dumps.AltNames())
        a1 = f"{row.country_code}.{row.admin1}" if row.country_code and row.admin1 else None
        a2 = f"{a1}.{row.admin2}" if a1 and row.admin2 else None
        country = self.countries.get(row.country_code)
        payload = {
            "name_en": alt.english if alt.english and alt.english != row.name else None,
            "alternate_names": _dedupe([*row.alternate_names, *alt.others], row.name)[:MAX_ALTERNATES],
            "country_name": country.name if country else None,
            "admin1_code": row.admin1 or None,
            "admin1_name": self.admin1[a1].name if a1 in self.admin1 else None,
            "admin2_code": row.admin2 or None,
            "admin2_name": self.admin2[a2].name if a2 in self.admin2 else None,
            "feature_class": row.feature.split(".")[0],
            "timezone": row.timezone or None,
            "elevation": row.elevation,
            "dem": row.dem,
            "iata": alt.iata,
            "icao": alt.icao,
            "modified": row.modified or None,
        }
        return {
            "geoname_id": row.geoname_id,
            "entity_type": entity_type,
            "name": row.name,
            "ascii_name": row.ascii_name,
            "name_en": payload["name_en"],
            "country_code": row.country_code or None,
            "place_kind": place_kind,
            "feature_code": row.feature.split(".")[1],
            "admin_code": a1,
            "admin1_code": row.admin1 or None,
            "population": row.population,
            "latitude": row.latitude,
            "longitude": row.longitude,
            "elevation": row.elevation if row.elevation is not None else row.dem,
            "continent_code": country.continent_code if country else None,
            "iata": alt.iata,
            "icao": alt.icao,
            "payload": payload,
        }

    def _stage_countries(self) -> Iterable[dict[str, Any]]:
        for c in self.countries.values():
            lat, lon, _ = self.coords.get(c.geoname_id, (None, None, 0))
            alt = self.alternates.get(c.geoname_id, dumps.AltNames())
            yield {
                "geoname_id": c.geoname_id,
                "entity_type": "country",
                "name": c.name,
                "ascii_name": fold(c.name).title() if not c.name.isascii() else c.name,
                "iso2": c.iso2,
                "iso3": c.iso3,
                "country_code": c.iso2,
                "feature_code": "PCLI",
                "population": c.population,
                "latitude": lat,
                "longitude": lon,
                "continent_code": c.continent_code,
                "payload": {
                    "name_en": alt.english if alt.english and alt.english != c.name else None,
                    "alternate_names": _dedupe(alt.others, c.name)[:MAX_ALTERNATES],
                    "continent_code": c.continent_code,
                    "capital_name": c.capital or None,
                    "iso_numeric": c.iso_numeric,
                    "fips": c.fips or None,
                    "area_km2": c.area_km2,
                    "tld": c.tld or None,
                    "currency_code": c.currency_code or None,
                    "currency_name": c.currency_name or None,
                    "phone": c.phone or None,
                    "postal_code_format": c.postal_code_format or None,
                    "postal_code_regex": c.postal_code_regex or None,
                    "languages": c.languages,
                    "neighbours": c.neighbours,
                },
            }

    def _stage_admins(self) -> Iterable[dict[str, Any]]:
        for level, codes in (("admin1", self.admin1), ("admin2", self.admin2)):
            for a in codes.values():
                cc, a1 = a.code.split(".")[:2]
                lat, lon, population = self.coords.get(a.geoname_id, (None, None, 0))
                country = self.countries.get(cc)
                parent = self.admin1.get(f"{cc}.{a1}") if level == "admin2" else None
                yield {
                    "geoname_id": a.geoname_id,
                    "entity_type": level,
                    "name": a.name,
                    "ascii_name": a.ascii_name,
                    "country_code": cc,
                    "feature_code": "ADM1" if level == "admin1" else "ADM2",
                    "admin_code": a.code,
                    "admin1_code": a1,
                    "population": population,
                    "latitude": lat,
                    "longitude": lon,
                    "continent_code": country.continent_code if country else None,
                    "payload": {
                        "code": a.code,
                        "admin1_code": a1,
                        "admin1_name": parent.name if parent else None,
                        "admin2_code": a.code.split(".")[2] if level == "admin2" else None,
                        "country_name": country.name if country else None,
                    },
                }

    def _insert(self, rows: Iterable[dict[str, Any]]) -> None:
        sql = (
            "INSERT INTO entity (geoname_id, entity_type, name, ascii_name, name_en, iso2, iso3, country_code,"
            " place_kind, feature_code, admin_code, admin1_code, population, latitude, longitude, elevation,"
            " continent_code, iata, icao, payload) VALUES (:geoname_id, :entity_type, :name, :ascii_name,"
            " :name_en, :iso2, :iso3, :country_code, :place_kind, :feature_code, :admin_code, :admin1_code,"
            " :population, :latitude, :longitude, :elevation, :continent_code, :iata, :icao, :payload)"
        )
        keys = (
            "ascii_name", "name_en", "iso2", "iso3", "country_code", "place_kind", "feature_code",
            "admin_code", "admin1_code", "latitude", "longitude", "elevation", "continent_code", "iata", "icao",
        )  # fmt: skip
        batch = []
        for row in rows:
            batch.append({**dict.fromkeys(keys), **row, "payload": json.dumps(row["payload"], ensure_ascii=False)})
            if len(batch) >= 5000:
                self._insert_batch(sql, batch)
                batch = []
        self._insert_batch(sql, batch)

    def _insert_batch(self, sql: str, batch: list[dict[str, Any]]) -> None:
        ids = [r["geoname_id"] for r in batch]
        if dupes := self.seen_ids.intersection(ids) or len(set(ids)) != len(ids):
            raise ValueError(f"geonameid(s) appear twice in the inputs: {sorted(dupes)[:10] if dupes else ids}")
        self.seen_ids.update(ids)
        self.db.executemany(sql, batch)

    # ------------------------------------------------------------ derived fields
    def _mark_capitals(self) -> None:
        """A country's capital: its PPLC city, else the largest city named like countryInfo's capital."""
        for c in self.countries.values():
            found = self.db.execute(
                "SELECT geoname_id, name FROM entity"
                " WHERE entity_type='city' AND country_code=? AND feature_code='PPLC'"
                " ORDER BY population DESC LIMIT 1",
                (c.iso2,),
            ).fetchone()
            if found is None and c.capital:
                found = self.db.execute(
                    "SELECT geoname_id, name FROM entity WHERE entity_type='city' AND country_code=:cc"
                    " AND (name=:cap OR ascii_name=:cap OR name_en=:cap OR name LIKE :cap || ',%')"
                    " ORDER BY (name=:cap) DESC, population DESC LIMIT 1",
                    {"cc": c.iso2, "cap": c.capital},
                ).fetchone()
            if found is None:
                continue
            self.db.execute("UPDATE entity SET is_capital=1 WHERE geoname_id=?", (found[0],))
            self.db.execute(
                "UPDATE entity SET payload=json_set(payload, '$.capital_geoname_id', ?) WHERE geoname_id=?",
                (found[0], c.geoname_id),
            )

    def _coastal_fields(self) -> None:
        coast = PointIndex(*self.coast)
        marine_rows = self.db.execute(
            "SELECT geoname_id, name, feature_code, latitude, longitude FROM entity WHERE entity_type='marine'"
        ).fetchall()
        marine = PointIndex([r[3] for r in marine_rows], [r[4] for r in marine_rows])
        cities = self.db.execute("SELECT geoname_id, latitude, longitude FROM entity WHERE entity_type='city'")
        updates = []
        for gid, lat, lon in cities.fetchall():
            near = coast.nearest(lat, lon, MAX_COAST_KM)
            dist = round(near[1], 3) if near else None
            sea = marine.nearest(lat, lon, MAX_MARINE_KM)
            extra: dict[str, Any] = {"distance_to_coast_km": dist, "coastal_category": coastal_category(dist)}
            if sea:
                m = marine_rows[sea[0]]
                extra.update(
                    nearest_marine_geoname_id=m[0],
                    nearest_marine_name=m[1],
                    nearest_marine_feature_code=m[2],
                    nearest_marine_distance_km=round(sea[1], 3),
                )
            updates.append((dist, extra["coastal_category"], json.dumps(extra, ensure_ascii=False), gid))
        self.db.executemany(
            "UPDATE entity SET distance_to_coast_km=?, coastal_category=?, payload=json_patch(payload, ?)"
            " WHERE geoname_id=?",
            updates,
        )
        log.info("coastal fields for %d cities from %d coast points, %d marine", len(updates), coast.size, marine.size)

    # ------------------------------------------------------------ final pass
    def _finish(self) -> None:
        """Payload clean-up, name indexes, R*Tree and vectors, one streamed pass over every row."""
        ids: list[int] = []
        types: list[int] = []
        vecs: list[np.ndarray] = []
        rows = self.db.execute(
            "SELECT e.geoname_id, e.entity_type, e.name, e.ascii_name, e.name_en, e.iso2, e.iso3, e.place_kind,"
            " e.latitude, e.longitude, e.population, e.elevation, e.is_capital, e.payload, e.iata"
            " FROM entity e ORDER BY e.geoname_id"
        )
        write = self.db.cursor()
        while chunk := rows.fetchmany(5000):
            keys, fts, tri, boxes, payloads = [], [], [], [], []
            for gid, etype, name, ascii_name, name_en, iso2, iso3, kind, lat, lon, pop, elev, cap, raw, iata in chunk:
                payload = json.loads(raw)
                payload["is_capital"] = bool(cap) if etype == "city" else None
                clean = {k: v for k, v in payload.items() if v not in (None, [], "")}
                payloads.append((json.dumps(clean, ensure_ascii=False), gid))
                alternates = clean.get("alternate_names", [])
                for key, kind_rank in _name_keys(name, name_en, ascii_name, alternates).items():
                    keys.append((key, kind_rank, gid))
                words = " ".join(dict.fromkeys([name, ascii_name or "", name_en or "", *alternates, iso2 or "",
                                                iso3 or "", iata or ""]))  # fmt: skip
                fts.append((gid, words))
                tri.append((gid, " | ".join(dict.fromkeys(fold(n) for n in (name, ascii_name, name_en) if n))))
                if lat is not None and lon is not None:
                    cls = spatial_class(etype, kind)
                    boxes.append((gid, cls, cls, lat, lat, lon, lon, lat, lon))
                ids.append(gid)
                types.append(TYPE_RANK[etype])
                names = [name, *([name_en] if name_en else []), clean.get("country_name", "")]
                vecs.append(vector(VectorInput(etype, names, kind, lat, lon, pop or 0, elev, bool(cap))))
            write.executemany("UPDATE entity SET payload=? WHERE geoname_id=?", payloads)
            write.executemany("INSERT INTO name_key (key, kind, geoname_id) VALUES (?, ?, ?)", keys)
            write.executemany("INSERT INTO name_fts (rowid, names) VALUES (?, ?)", fts)
            write.executemany("INSERT INTO name_tri (rowid, names) VALUES (?, ?)", tri)
            write.executemany("INSERT INTO entity_rtree VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", boxes)
        matrix = np.vstack(vecs).astype(np.float16) if vecs else np.zeros((0, DIM), np.float16)
        self.db.execute(
            "INSERT INTO vectors (dim, ids, types, matrix) VALUES (?, ?, ?, ?)",
            (DIM, np.asarray(ids, np.int64).tobytes(), np.asarray(types, np.uint8).tobytes(), matrix.tobytes()),
        )
        self.db.execute("INSERT INTO name_fts(name_fts) VALUES ('optimize')")
        self.db.execute("INSERT INTO name_tri(name_tri) VALUES ('optimize')")

    def _meta(self, counts: dict[str, int]) -> None:
        built_at = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
        files = [*self.inputs.geonames, self.inputs.country_info, *self.inputs.admin1, *self.inputs.admin2,
                 *self.inputs.alternate_names]  # fmt: skip
        meta = {
            "schema_version": SCHEMA_VERSION,
            "data_version": self.inputs.data_version or built_at,
            "built_at": built_at,
            "sources": json.dumps([p.name for p in files]),
            "counts": json.dumps(counts),
            "place_kind_counts": json.dumps(
                dict(
                    self.db.execute(
                        "SELECT place_kind, COUNT(*) FROM entity WHERE place_kind IS NOT NULL GROUP BY 1"
                    ).fetchall()
                )
            ),
            "coast_points": str(len(self.coast[0])),
        }
        self.db.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", meta.items())


def _classify(row: dumps.Geoname) -> tuple[str | None, str | None]:
    if row.feature.startswith("P."):
        return "city", None
    if row.feature in MARINE_FEATURES:
        return "marine", None
    if kind := PLACE_KIND_BY_FEATURE.get(row.feature):
        return "place", kind
    return None, None


def _dedupe(names: Iterable[str], own: str) -> list[str]:
    seen = {exact_key(own)}
    out = []
    for n in names:
        key = exact_key(n)
        if key and key not in seen:
            seen.add(key)
            out.append(n)
    return out


def _name_keys(name: str, name_en: str | None, ascii_name: str | None, alternates: list[str]) -> dict[str, int]:
    """Lookup key → best match kind: 0 exact name, 1 English name, 2 ASCII/accent-folded, 3 alternate."""
    keys: dict[str, int] = {}
    candidates = [(exact_key(name), 0), (exact_key(name_en), 1) if name_en else None, (fold(name), 2),
                  (fold(ascii_name), 2) if ascii_name else None, (fold(name_en), 2) if name_en else None,
                  *((fold(a), 3) for a in alternates)]  # fmt: skip
    for item in candidates:
        if item and item[0] and item[1] < keys.get(item[0], 9):
            keys[item[0]] = item[1]
    return keys
