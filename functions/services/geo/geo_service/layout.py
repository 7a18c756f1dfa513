"""The database layout the importer writes and the service reads (one file, opened read-only).

`entity` holds every row with the columns tools filter on; `payload` is the rest as JSON.
`name_key` serves exact matches (kind 0 name, 1 English, 2 ASCII/accent-folded, 3 alternate),
`name_fts` word and prefix matches, `name_tri` fuzzy (trigram) matches (`name_tri_vocab` says how
common each trigram is), `entity_rtree` the spatial prefilter (a class dimension,
`kinds.SPATIAL_CLASSES`, then the point's box; the exact coordinates ride along as auxiliary
columns, so a radius search measures without reading `entity`), `vectors` one float16 matrix for
geo_semantic_search, `meta` the version.
"""

from __future__ import annotations

SCHEMA_VERSION = "2"

DDL = """
CREATE TABLE entity (
    geoname_id INTEGER PRIMARY KEY,
    entity_type TEXT NOT NULL,
    name TEXT NOT NULL,
    ascii_name TEXT,
    name_en TEXT,
    iso2 TEXT,
    iso3 TEXT,
    country_code TEXT,
    place_kind TEXT,
    feature_code TEXT,
    admin_code TEXT,
    admin1_code TEXT,
    population INTEGER NOT NULL DEFAULT 0,
    latitude REAL,
    longitude REAL,
    elevation REAL,
    is_capital INTEGER NOT NULL DEFAULT 0,
    continent_code TEXT,
    iata TEXT,
    icao TEXT,
    distance_to_coast_km REAL,
    coastal_category TEXT,
    payload TEXT NOT NULL
);
CREATE TABLE name_key (key TEXT NOT NULL, kind INTEGER NOT NULL, geoname_id INTEGER NOT NULL);
CREATE VIRTUAL TABLE name_fts USING fts5(
    names, content='', tokenize='unicode61 remove_diacritics 2', prefix='2 3 4'
);
CREATE VIRTUAL TABLE name_tri USING fts5(names, content='', tokenize='trigram');
CREATE VIRTUAL TABLE name_tri_vocab USING fts5vocab(name_tri, 'row');
CREATE VIRTUAL TABLE entity_rtree USING rtree(
    id, min_class, max_class, min_lat, max_lat, min_lon, max_lon, +latitude, +longitude
);
CREATE TABLE vectors (dim INTEGER NOT NULL, ids BLOB NOT NULL, types BLOB NOT NULL, matrix BLOB NOT NULL);
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""

INDEXES = """
CREATE INDEX entity_type_country_pop ON entity (entity_type, country_code, population DESC);
CREATE INDEX entity_type_admin_pop ON entity (entity_type, country_code, admin1_code, population DESC);
-- place_*: geo_places_search / geo_rank_places / geo_airport_lookup read places highest first and stop
-- at LIMIT (partial: places are a small share of the rows; queries say entity_type = 'place' literally).
CREATE INDEX place_elev ON entity (elevation DESC, population DESC) WHERE entity_type = 'place';
CREATE INDEX place_kind_elev ON entity (place_kind, elevation DESC, population DESC) WHERE entity_type = 'place';
CREATE INDEX place_kind_country_elev ON entity (place_kind, country_code, elevation DESC, population DESC)
    WHERE entity_type = 'place';
CREATE INDEX entity_type_name ON entity (entity_type, name);
CREATE INDEX entity_admin_code ON entity (admin_code, entity_type);
CREATE INDEX entity_coast ON entity (entity_type, country_code, distance_to_coast_km);
CREATE INDEX entity_iata ON entity (iata) WHERE iata IS NOT NULL;
CREATE INDEX entity_icao ON entity (icao) WHERE icao IS NOT NULL;
CREATE INDEX entity_iso2 ON entity (iso2) WHERE iso2 IS NOT NULL;
CREATE INDEX entity_iso3 ON entity (iso3) WHERE iso3 IS NOT NULL;
CREATE INDEX name_key_key ON name_key (key, kind);
"""

SLIM_PAYLOAD_KEYS = frozenset(
    {
        "name_en", "country_name", "admin1_code", "admin1_name", "admin2_code", "admin2_name", "timezone",
        "is_capital", "elevation", "distance_to_coast_km", "coastal_category", "nearest_marine_name",
        "nearest_marine_distance_km", "iata", "icao", "continent_code", "capital_name", "capital_geoname_id",
        "currency_code", "neighbours", "languages", "code",
    }
)  # fmt: skip
"""Payload keys list results keep; `*_get` tools return the whole payload."""
