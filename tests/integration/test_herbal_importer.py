"""The herbal importer over Dr. Duke's dump format: real rows (fixtures/herbal/dump) and hand-written
extracts of the three tables the partial copy lacks (fixtures/herbal/full-tables), as folders and as
the official zip."""

from __future__ import annotations

import csv
import shutil
import sqlite3
import zipfile
from typing import TYPE_CHECKING

import pytest

from herbal_service.importer.__main__ import main
from herbal_service.importer.dump import DumpError, locate
from herbal_service.layout import ETHNO_ONLY_ID_BASE
from tests.herbal_support import DUMP, FULL_TABLES, build_db

if TYPE_CHECKING:
    from pathlib import Path


def _rows(db: Path, sql: str, params: tuple = ()) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute(sql, params).fetchall()


def _csv_rows(path: Path) -> int:
    with path.open(encoding="latin-1", newline="") as handle:
        return sum(1 for _ in csv.DictReader(handle))


@pytest.fixture(scope="module")
def full(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_db(tmp_path_factory.mktemp("herbal") / "full.sqlite", DUMP, FULL_TABLES)


def test_every_table_is_read_and_counted_with_a_csv_parser(full: Path) -> None:
    recorded = dict(_rows(full, "SELECT name, rows FROM source_table"))
    expected = {p.stem: _csv_rows(p) for folder in (DUMP, FULL_TABLES) for p in folder.glob("*.csv")}
    assert recorded == expected
    assert recorded["REFERENCES"] < sum(1 for _ in (DUMP / "REFERENCES.csv").open(encoding="latin-1")) - 1
    assert _rows(full, "SELECT value FROM meta WHERE key = 'missing_tables'") == [("[]",)]


def test_farmacy_new_wins_per_plant_and_farmacy_fills_the_plants_it_lacks(full: Path) -> None:
    origins = dict(_rows(full, "SELECT herb_id, group_concat(DISTINCT origin) FROM constituent GROUP BY herb_id"))
    assert origins[491] == "FARMACY_NEW" and origins[54] == "FARMACY"
    assert _rows(full, "SELECT * FROM constituent WHERE herb_id = 491 AND chem = 'CAFFEINE'") == []
    assert _rows(full, "SELECT COUNT(*) FROM constituent WHERE herb_id = 999999") == [(0,)]  # not in FNFTAX


def test_amounts_flags_and_units_are_parsed(full: Path) -> None:
    def amounts(herb: int, chem: str) -> list[tuple]:
        sql = "SELECT part_code, amount_low, amount_high, unit, trace, less_than FROM constituent WHERE herb_id = ? AND chem = ?"
        return _rows(full, sql, (herb, chem))

    assert amounts(442, "QUERCETIN") == [("LF", 1500.0, 3000.0, "ppm", 0, 0)]  # "1,500"
    assert amounts(442, "KAEMPFEROL") == [("LF", None, 40.0, "ppm", 0, 1)]  # LT=T
    assert amounts(1078, "ZINGERONE") == [("RH", None, None, None, 1, 0)]  # TRACE=T, no amount
    assert amounts(1042, "VALTRATE") == [("RT", None, None, "%", 0, 0)]  # QUANT_UNIT
    assert amounts(54, "DIALLYL-DISULFIDE") == [("BU", None, 600.0, "ppm", 0, 1)]  # FARMACY: AMT_OR_HI, LESSTHAN


def test_ethnobotany_joins_taxa_by_name_and_keeps_latin1_and_multiline_fields(full: Path) -> None:
    uses = _rows(full, "SELECT use, country, reference FROM ethnobotany WHERE herb_id = 491 ORDER BY use, country")
    assert ("Wound", "España", "ZZZ") in uses and len(uses) == 3
    citation = _rows(full, "SELECT citation FROM reference WHERE reference = 'ZZZ'")[0][0]
    assert citation.startswith("Hand-written citation") and "\n" in citation
    assert _rows(full, "SELECT herb_id FROM ethnobotany WHERE use = 'Tonic'") == [(2085,)]  # the species, not a variety
    only = _rows(full, "SELECT herb_id, fnfnum, scientific_name, common_names FROM herb WHERE herb_id > ?",
                 (ETHNO_ONLY_ID_BASE,))  # fmt: skip
    assert only == [(ETHNO_ONLY_ID_BASE + 1, None, "Sutherlandia frutescens", '["Cancer Bush"]')]


def test_herb_activity_counts_distinct_constituents(full: Path) -> None:
    rows = _rows(full, "SELECT herb_id, constituents, chemicals FROM herb_activity WHERE activity_key = 'antiaggregant'"
                       " ORDER BY constituents DESC, herb_id")  # fmt: skip
    assert rows[0] == (442, 3, '["GINKGOLIDE-B", "KAEMPFEROL", "QUERCETIN"]')


def test_the_official_zip_layout_builds_the_same_database(tmp_path: Path, full: Path) -> None:
    archive = tmp_path / "Duke-Source-CSV.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as out:
        for folder in (DUMP, FULL_TABLES):
            for path in folder.glob("*.csv"):
                out.write(path, f"Duke-Source-CSV/{path.name}")
    zipped = build_db(tmp_path / "zip.sqlite", archive)
    for table in ("herb", "constituent", "chem_activity", "ethnobotany", "herb_activity", "name_key"):
        assert _rows(zipped, f"SELECT * FROM {table} ORDER BY 1, 2") == _rows(
            full, f"SELECT * FROM {table} ORDER BY 1, 2"
        )
    assert ("FNFTAX", "Duke-Source-CSV.zip:Duke-Source-CSV/FNFTAX.csv") in _rows(
        zipped, "SELECT name, file FROM source_table"
    )


def test_a_partial_dump_builds_what_it_can_and_records_what_is_missing(tmp_path: Path) -> None:
    partial = build_db(tmp_path / "partial.sqlite", DUMP)
    assert _rows(partial, "SELECT value FROM meta WHERE key = 'missing_tables'") == [
        ('["FARMACY_NEW", "FARMACY", "ETHNOBOT"]',)
    ]
    assert _rows(partial, "SELECT COUNT(*) FROM herb") == [(15,)]
    assert _rows(partial, "SELECT COUNT(*) FROM constituent") == [(0,)]


def test_a_dump_without_fnftax_or_with_a_bad_header_is_refused_clearly(tmp_path: Path) -> None:
    with pytest.raises(DumpError, match=r"no FNFTAX\.csv"):
        build_db(tmp_path / "x.sqlite", FULL_TABLES)
    broken = tmp_path / "broken"
    shutil.copytree(DUMP, broken)
    (broken / "AGGREGAC.csv").write_text("AGGNO,CHEMICAL,ACTIVITY\n1,X,Y\n", encoding="latin-1")
    with pytest.raises(DumpError, match=r"broken/AGGREGAC\.csv: missing column\(s\) CHEM"):
        build_db(tmp_path / "x.sqlite", broken)
    with pytest.raises(SystemExit, match=r"herbal importer: .*missing column"):
        main(["--out", str(tmp_path / "y.sqlite"), "--source", str(broken)])


def test_later_sources_win_and_other_files_are_ignored(tmp_path: Path) -> None:
    extra = tmp_path / "extra"
    extra.mkdir()
    (extra / "parts.CSV").write_text('PPCO,PPNA\n"LF","Leaf (newer)"\n', encoding="latin-1")
    (extra / "NOTES.csv").write_text("A\n1\n", encoding="latin-1")
    found = locate([DUMP, extra])
    assert found["PARTS"].where == "extra/parts.CSV" and "NOTES" not in found


def test_ethnobotany_rows_naming_no_plant_or_no_use_are_skipped(tmp_path: Path) -> None:
    extra = tmp_path / "extra"
    extra.mkdir()
    (extra / "ETHNOBOT.csv").write_text(
        "ACTIVITY,GENUS,SPECIES,COUNTRY\nCold,,,China\n,Zingiber,officinale,India\nCough,Zingiber,officinale,Peru\n",
        encoding="latin-1",
    )
    db = build_db(tmp_path / "x.sqlite", DUMP, extra)
    assert _rows(db, "SELECT herb_id, use, country FROM ethnobotany") == [(1078, "Cough", "Peru")]
    assert _rows(db, "SELECT COUNT(*) FROM herb") == [(15,)]
