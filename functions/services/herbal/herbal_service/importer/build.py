"""Build the herbal database from the tables of a Dr. Duke's dump.

Stages: taxa and their names; vocabularies (chemicals, parts, references, activities);
chemical → activity (AGGREGAC); plant → chemical (FARMACY_NEW, then FARMACY for plants it lacks);
ethnobotany (ETHNOBOT, joined to taxa by name, since it has no FNFNUM); then the per-herb activity
counts and the name indexes. Tables the dump lacks are skipped and left out of `source_table`.
"""

from __future__ import annotations

import json
import logging
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from herbal_service.importer.dump import DumpError, TableFile, locate
from herbal_service.layout import (
    CHEMICALS_SHOWN,
    DDL,
    ETHNO_ONLY_ID_BASE,
    INDEXES,
    LINK_TABLES,
    REQUIRED_TABLES,
    SCHEMA_VERSION,
    TABLES,
)
from herbal_service.text import fold
from mcp_platform.storage.readonly_db import write_atomically

if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Iterable
    from pathlib import Path

log = logging.getLogger("herbal.importer")


@dataclass
class Inputs:
    sources: list[Path]
    """Folders or zip files holding the dump's CSV files (later ones win for the same table)."""
    data_version: str = ""


def build(inputs: Inputs, out: Path) -> dict[str, int]:
    """Write the database to `out` (replaced if present); returns rows read per dump table."""
    tables = locate(inputs.sources)
    if missing := [t for t in REQUIRED_TABLES if t not in tables]:
        raise DumpError(f"no {', '.join(missing)}.csv in {', '.join(map(str, inputs.sources))}")

    def fill(db: sqlite3.Connection) -> dict[str, int]:
        counts = _Importer(db, tables).run()
        _meta(db, inputs, counts)
        return counts

    return write_atomically(out, DDL, fill)


def _number(text: str) -> float | None:
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


class _Importer:
    def __init__(self, db: sqlite3.Connection, tables: dict[str, TableFile]) -> None:
        self.db = db
        self.tables = tables
        self.counts: dict[str, int] = {}
        self.herbs: dict[int, dict[str, Any]] = {}
        self.by_taxon: dict[str, int] = {}
        self.by_species: dict[str, int] = {}

    def rows(self, name: str) -> Iterable[dict[str, str]]:
        """Rows of one dump table (nothing when the dump lacks it), counted for the build record."""
        table = self.tables.get(name)
        if table is None:
            return
        n = 0
        for n, row in enumerate(table.rows(), 1):  # noqa: B007 - n is the count once the loop ends
            yield row
        self.counts[name] = n
        self.db.execute("INSERT INTO source_table VALUES (?, ?, ?, ?)", (name, n, table.where, table.sha256()))
        log.info("%s: %d rows from %s", name, n, table.where)

    def run(self) -> dict[str, int]:
        self._taxa()
        self._vocabularies()
        self.db.executemany(
            "INSERT INTO chem_activity VALUES (?, ?, ?, ?)",
            ((r["CHEM"], r["ACTIVITY"], r.get("DOSAGE", ""), r.get("REFERENCE", "")) for r in self.rows("AGGREGAC")),
        )
        self._activities_from_links()
        self._constituents()
        self._ethnobotany()
        self._write_herbs()
        self.db.executescript(INDEXES)
        self._herb_activity()
        self._herb_parts_and_uses()
        self.db.execute("ANALYZE")
        return self.counts

    def _taxa(self) -> None:
        for r in self.rows("FNFTAX"):
            fnfnum = int(r["FNFNUM"])
            self.herbs[fnfnum] = {
                "fnfnum": fnfnum,
                "scientific_name": r["TAXON"],
                "author": r.get("TAXAUTHOR", ""),
                "genus": r["GENUS"],
                "species": r["SPECIES"],
                "family": r["FAMILY"],
                "common_names": [],
            }
            self.by_taxon.setdefault(fold(r["TAXON"]), fnfnum)
            if fold(r["TAXON"]) == fold(f"{r['GENUS']} {r['SPECIES']}"):
                self.by_species.setdefault(fold(r["TAXON"]), fnfnum)
        for r in self.rows("COMMON_NAMES"):
            herb = self.herbs.get(int(r["FNFNUM"])) if r["FNFNUM"].isdigit() else None
            if herb is not None and r["CNNAM"] and r["CNNAM"] not in herb["common_names"]:
                herb["common_names"].append(r["CNNAM"])

    def _vocabularies(self) -> None:
        self.db.executemany(
            "INSERT OR IGNORE INTO chemical VALUES (?, ?)",
            ((r["CHEM"], r.get("CASNUM") or None) for r in self.rows("CHEMICALS")),
        )
        self.db.executemany(
            "INSERT OR IGNORE INTO part VALUES (?, ?)", ((r["PPCO"], r["PPNA"]) for r in self.rows("PARTS"))
        )
        self.db.executemany(
            "INSERT OR IGNORE INTO reference VALUES (?, ?)",
            ((r["REFERENCE"], r["LONGREF"]) for r in self.rows("REFERENCES") if r["REFERENCE"] and r["LONGREF"]),
        )
        self.db.executemany(
            "INSERT OR IGNORE INTO activity VALUES (?, ?, ?)",
            ((fold(r["ACTIVITY"]), r["ACTIVITY"], r.get("DEFINITION") or None) for r in self.rows("ACTIVITIES")),
        )

    def _activities_from_links(self) -> None:
        """Activities AGGREGAC uses that ACTIVITIES does not define still get a key."""
        for (name,) in self.db.execute("SELECT DISTINCT activity FROM chem_activity").fetchall():
            self.db.execute("INSERT OR IGNORE INTO activity VALUES (?, ?, NULL)", (fold(name), name))

    def _constituents(self) -> None:
        covered: set[int] = set()
        for table in LINK_TABLES:
            added: set[int] = set()
            batch = []
            for r in self.rows(table):
                herb_id = int(r["FNFNUM"]) if r["FNFNUM"].isdigit() else None
                if herb_id not in self.herbs or herb_id in covered or not r["CHEM"]:
                    continue  # a plant FNFTAX lacks, or one a newer link table already covered
                added.add(herb_id)
                low = _number(r.get("AMT_LO", "")) if r.get("AMT_LO") else _number(r.get("AMT_OR_LO", ""))
                high = _number(r.get("AMT_HI", "")) if r.get("AMT_HI") else _number(r.get("AMT_OR_HI", ""))
                less_than = r.get("LT", r.get("LESSTHAN", "")) == "T"
                unit = r.get("QUANT_UNIT") or ("ppm" if low is not None or high is not None else None)
                batch.append(
                    (herb_id, r["CHEM"], r["PPCO"] or None, low, high, unit, r.get("TRACE") == "T", less_than,
                     r.get("REFERENCE") or None, table)
                )  # fmt: skip
            self.db.executemany("INSERT INTO constituent VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", batch)
            for herb_id in added:
                self.herbs[herb_id]["link_table"] = table
            covered |= added

    def _ethnobotany(self) -> None:
        extra: dict[str, int] = {}
        batch, citations = [], []
        for r in self.rows("ETHNOBOT"):
            taxon = r.get("TAXON") or f"{r['GENUS']} {r['SPECIES']}".strip()
            key = fold(taxon)
            if not key or not r["ACTIVITY"]:
                continue  # a row naming no plant or no use says nothing
            herb_id = self.by_taxon.get(key) or self.by_species.get(fold(f"{r['GENUS']} {r['SPECIES']}"))
            if herb_id is None:
                herb_id = extra.get(key)
            if herb_id is None:
                herb_id = extra[key] = ETHNO_ONLY_ID_BASE + len(extra) + 1
                self.herbs[herb_id] = {
                    "fnfnum": None,
                    "scientific_name": taxon,
                    "author": r.get("TAXAUTHOR") or r.get("SPAUT", ""),
                    "genus": r["GENUS"],
                    "species": r["SPECIES"],
                    "family": r.get("FAMILY", ""),
                    "common_names": [],
                }
            names = self.herbs[herb_id]["common_names"]
            if (cname := r.get("CNAME", "")) and cname not in names:
                names.append(cname)
            code, longref = r.get("REFERENCE", ""), r.get("LONGREF", "")
            if code and longref:  # ETHNOBOT carries its own long citation beside the code
                citations.append((code, longref))
            batch.append((herb_id, r["ACTIVITY"], r.get("COUNTRY") or None, code or longref or None))
        self.db.executemany("INSERT INTO ethnobotany VALUES (?, ?, ?, ?)", batch)
        self.db.executemany("INSERT OR IGNORE INTO reference VALUES (?, ?)", citations)

    def _write_herbs(self) -> None:
        for herb_id, h in self.herbs.items():
            self.db.execute(
                "INSERT INTO herb VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (herb_id, h["fnfnum"], h["scientific_name"], h["author"] or None, h["genus"], h["species"],
                 h["family"] or None, json.dumps(h["common_names"], ensure_ascii=False), h.get("link_table")),
            )  # fmt: skip
            keys = {(fold(h["scientific_name"]), 0), (fold(f"{h['genus']} {h['species']}"), 2)}
            keys |= {(fold(n), 1) for n in h["common_names"]}
            self.db.executemany("INSERT INTO name_key VALUES (?, ?, ?)", ((k, kind, herb_id) for k, kind in keys if k))
            self.db.execute(
                "INSERT INTO herb_fts (rowid, scientific, common) VALUES (?, ?, ?)",
                (herb_id, h["scientific_name"], " ; ".join(h["common_names"])),
            )

    def _herb_activity(self) -> None:
        """For every (activity, herb): how many distinct constituents of the herb have that activity."""
        activities: dict[str, set[str]] = defaultdict(set)
        for chem, name in self.db.execute("SELECT chem, activity FROM chem_activity"):
            activities[chem].add(fold(name))
        per_herb: dict[int, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        for herb_id, chem in self.db.execute("SELECT DISTINCT herb_id, chem FROM constituent"):
            for key in activities.get(chem, ()):
                per_herb[herb_id][key].add(chem)
        self.db.executemany(
            "INSERT INTO herb_activity VALUES (?, ?, ?, ?)",
            (
                (key, herb_id, len(chems), json.dumps(sorted(chems)[:CHEMICALS_SHOWN]))
                for herb_id, by_key in per_herb.items()
                for key, chems in by_key.items()
            ),
        )

    def _herb_parts_and_uses(self) -> None:
        self.db.execute(
            "INSERT INTO herb_part SELECT herb_id, part_code, COUNT(DISTINCT chem) FROM constituent"
            " GROUP BY herb_id, part_code"
        )
        uses: dict[tuple[int, str], dict[str, Any]] = {}
        rows = self.db.execute(
            "SELECT e.herb_id, e.use, e.country, COALESCE(r.citation, e.reference) FROM ethnobotany e"
            " LEFT JOIN reference r ON r.reference = e.reference ORDER BY e.rowid"
        )
        for herb_id, use, country, reference in rows:
            entry = uses.setdefault((herb_id, use), {"countries": [], "reports": 0, "references": []})
            entry["reports"] += 1
            for key, value in (("countries", country), ("references", reference)):
                if value and value not in entry[key]:
                    entry[key].append(value)
        by_herb: dict[int, list[tuple[str, dict[str, Any]]]] = defaultdict(list)
        for (herb_id, use), entry in uses.items():
            by_herb[herb_id].append((use, entry))
        for herb_id, entries in by_herb.items():
            entries.sort(key=lambda u: (-len(u[1]["countries"]), -u[1]["reports"], u[0]))
            self.db.executemany(
                "INSERT INTO herb_use VALUES (?, ?, ?, ?, ?, ?)",
                ((herb_id, use, json.dumps(e["countries"], ensure_ascii=False), e["reports"],
                  json.dumps(e["references"], ensure_ascii=False), rank) for rank, (use, e) in enumerate(entries)),
            )  # fmt: skip


def _meta(db: sqlite3.Connection, inputs: Inputs, counts: dict[str, int]) -> None:
    built = datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")
    herbs = db.execute("SELECT COUNT(*) FROM herb").fetchone()[0]
    values = {
        "schema_version": SCHEMA_VERSION,
        "built_at": built,
        "data_version": inputs.data_version or built,
        "herbs": str(herbs),
        "missing_tables": json.dumps([t for t in TABLES if t not in counts]),
    }
    db.executemany("INSERT INTO meta VALUES (?, ?)", values.items())
