"""The database layout the importer writes and the service reads (one file, opened read-only).

`herb` holds one row per taxon (FNFTAX's FNFNUM; taxa only ETHNOBOT names get ids from
`ETHNO_ONLY_ID_BASE` up) and the link table its constituents came from. `name_key` serves exact name
matches (kind 0 scientific name, 1 common name, 2 genus + species), `herb_fts` word and prefix
matches over scientific and common names. `constituent` is FARMACY_NEW (FARMACY for plants
FARMACY_NEW lacks), `chem_activity` AGGREGAC, `herb_activity` the per-herb count of constituents
having each activity (herbal_by_activity reads it highest first and stops at LIMIT; `chemicals`
holds the first few names), `ethnobotany` ETHNOBOT; `herb_part` and `herb_use` are what herbal_get
shows, aggregated once at build time (a herb may have thousands of constituent and use rows).
`source_table` records every dump table the build read (rows, file, sha256): a table absent there
was absent from the dump.
"""

from __future__ import annotations

SCHEMA_VERSION = "1"
ETHNO_ONLY_ID_BASE = 10_000_000
CHEMICALS_SHOWN = 10
"""Chemical names herb_activity keeps (and herbal_by_activity shows) per herb and activity."""

LINK_TABLES = ("FARMACY_NEW", "FARMACY")
"""Plant → chemical tables, newest first: for each plant the first table that has rows for it wins."""
TABLES = (
    "FNFTAX",
    "COMMON_NAMES",
    "CHEMICALS",
    "PARTS",
    "REFERENCES",
    "ACTIVITIES",
    "AGGREGAC",
    *LINK_TABLES,
    "ETHNOBOT",
)
"""The dump tables the importer reads, in reading order (the dump's other tables are not used)."""
REQUIRED_TABLES = ("FNFTAX",)

DDL = """
CREATE TABLE herb (
    herb_id INTEGER PRIMARY KEY,
    fnfnum INTEGER,
    scientific_name TEXT NOT NULL,
    author TEXT,
    genus TEXT,
    species TEXT,
    family TEXT,
    common_names TEXT NOT NULL,
    link_table TEXT
);
CREATE TABLE name_key (key TEXT NOT NULL, kind INTEGER NOT NULL, herb_id INTEGER NOT NULL);
CREATE VIRTUAL TABLE herb_fts USING fts5(
    scientific, common, content='', tokenize='unicode61 remove_diacritics 2', prefix='2 3 4'
);
CREATE TABLE chemical (chem TEXT PRIMARY KEY, cas TEXT) WITHOUT ROWID;
CREATE TABLE part (code TEXT PRIMARY KEY, name TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE reference (reference TEXT PRIMARY KEY, citation TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE activity (key TEXT PRIMARY KEY, activity TEXT NOT NULL, definition TEXT) WITHOUT ROWID;
CREATE TABLE constituent (
    herb_id INTEGER NOT NULL,
    chem TEXT NOT NULL,
    part_code TEXT,
    amount_low REAL,
    amount_high REAL,
    unit TEXT,
    trace INTEGER NOT NULL DEFAULT 0,
    less_than INTEGER NOT NULL DEFAULT 0,
    reference TEXT,
    origin TEXT NOT NULL
);
CREATE TABLE chem_activity (chem TEXT NOT NULL, activity TEXT NOT NULL, dosage TEXT, reference TEXT);
CREATE TABLE herb_activity (
    activity_key TEXT NOT NULL, herb_id INTEGER NOT NULL, constituents INTEGER NOT NULL, chemicals TEXT NOT NULL
);
CREATE TABLE ethnobotany (herb_id INTEGER NOT NULL, use TEXT NOT NULL, country TEXT, reference TEXT);
CREATE TABLE herb_part (herb_id INTEGER NOT NULL, part_code TEXT, constituents INTEGER NOT NULL);
CREATE TABLE herb_use (
    herb_id INTEGER NOT NULL, use TEXT NOT NULL, countries TEXT NOT NULL, reports INTEGER NOT NULL,
    references_ TEXT NOT NULL, rank INTEGER NOT NULL
);
CREATE TABLE source_table (name TEXT PRIMARY KEY, rows INTEGER NOT NULL, file TEXT NOT NULL, sha256 TEXT NOT NULL);
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""

INDEXES = """
CREATE INDEX name_key_key ON name_key (key, kind);
CREATE INDEX constituent_herb ON constituent (herb_id, chem, part_code);
CREATE INDEX constituent_chem ON constituent (chem);
CREATE INDEX chem_activity_chem ON chem_activity (chem, activity);
CREATE INDEX herb_activity_rank ON herb_activity (activity_key, constituents DESC, herb_id);
CREATE INDEX herb_part_herb ON herb_part (herb_id, constituents DESC);
CREATE INDEX herb_use_herb ON herb_use (herb_id, rank);
"""
