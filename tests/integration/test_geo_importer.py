"""The importer on tiny dump files written here: classification, capitals, coastal fields, names, errors."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from geo_service.importer.__main__ import main
from geo_service.importer.build import Inputs, build

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "geo"


def _geoname(gid: int, name: str, lat: float, lon: float, feature: str, cc: str = "IT", a1: str = "",
             pop: int = 0, alternates: str = "") -> str:  # fmt: skip
    fclass, fcode = feature.split(".")
    cols = [gid, name, name, alternates, lat, lon, fclass, fcode, cc, "", a1, "", "", "", pop, "", "", "", ""]
    return "\t".join(str(c) for c in cols) + "\n"


@pytest.fixture
def dumps(tmp_path: Path) -> Inputs:
    (tmp_path / "all.txt").write_text(
        _geoname(1, "Seaside", 44.0, 12.6, "P.PPL", a1="05", pop=100000, alternates="Sea Town")
        + _geoname(2, "Inland", 44.5, 11.3, "P.PPLA", a1="05", pop=300000)
        + _geoname(3, "Capitalia", 41.9, 12.5, "P.PPLC", a1="07", pop=2000000)
        + _geoname(4, "Tiny", 41.0, 12.0, "P.PPL", pop=10)
        + _geoname(5, "Big Peak", 45.0, 7.0, "T.PK", a1="19")
        + _geoname(6, "Some Sea", 43.5, 14.5, "H.SEA", cc="")
        + _geoname(7, "A Stream", 44.0, 12.0, "H.STM")
        + _geoname(8, "coast", 44.0, 12.62, "T.CST", cc="")
        + _geoname(3175395, "Italy", 42.8, 12.8, "A.PCLI")
    )
    (tmp_path / "countryInfo.txt").write_text(
        "#ISO\tISO3\n" + "\t".join(["IT", "ITA", "380", "IT", "Italy", "Capitalia", "301230", "60000000", "EU", ".it",
                                   "EUR", "Euro", "39", "#####", "", "it-IT,de-IT", "3175395", "CH,FR", ""]) + "\n"
    )  # fmt: skip
    (tmp_path / "alt.txt").write_text("1\t2\ten\tInland City\t1\t\t\t\t\t\n2\t2\tlink\thttp://x\t\t\t\t\t\t\n")
    return Inputs(
        geonames=[tmp_path / "all.txt"],
        country_info=tmp_path / "countryInfo.txt",
        admin1=[FIXTURES / "admin1CodesASCII.txt"],
        alternate_names=[tmp_path / "alt.txt"],
        min_city_population=50,
        data_version="test-1",
    )


def test_build_classifies_and_precomputes(dumps: Inputs, tmp_path: Path) -> None:
    out = tmp_path / "geo.sqlite"
    counts = build(dumps, out)
    assert counts == {"admin1": 21, "city": 3, "country": 1, "marine": 1, "place": 1}  # Tiny, stream, coast skipped
    db = sqlite3.connect(out)
    db.row_factory = sqlite3.Row
    row = {r["name"]: r for r in db.execute("SELECT * FROM entity")}
    assert row["Seaside"]["coastal_category"] == "direct_coastal" and row["Seaside"]["distance_to_coast_km"] < 2
    assert row["Inland"]["coastal_category"] == "coastal" or row["Inland"]["distance_to_coast_km"] > 5
    assert row["Inland"]["name_en"] == "Inland City" and row["Seaside"]["admin_code"] == "IT.05"
    assert row["Capitalia"]["is_capital"] == 1
    italy = json.loads(row["Italy"]["payload"])
    assert italy["capital_geoname_id"] == 3 and italy["neighbours"] == ["CH", "FR"]
    assert (row["Italy"]["latitude"], row["Italy"]["longitude"]) == (42.8, 12.8)  # lent by the PCLI row
    assert row["Big Peak"]["place_kind"] == "peak"
    seaside = json.loads(row["Seaside"]["payload"])
    assert seaside["nearest_marine_name"] == "Some Sea" and seaside["admin1_name"] == "Emilia-Romagna"
    assert seaside["alternate_names"] == ["Sea Town"]
    keys = dict(db.execute("SELECT key, kind FROM name_key WHERE geoname_id = 2").fetchall())
    assert keys == {"inland": 0, "inland city": 1}
    assert [r[0] for r in db.execute("SELECT rowid FROM name_fts WHERE name_fts MATCH 'sea*'")] == [1, 6]
    assert db.execute("SELECT COUNT(*) FROM entity_rtree").fetchone()[0] == 6  # admin1 rows have no coordinates
    assert dict(db.execute("SELECT key, value FROM meta"))["data_version"] == "test-1"


def test_duplicate_ids_fail_the_build(dumps: Inputs, tmp_path: Path) -> None:
    dup = tmp_path / "dup.txt"
    dup.write_text(_geoname(5, "Again", 1.0, 1.0, "T.PK"))
    dumps.geonames.append(dup)
    with pytest.raises(ValueError, match=r"appear twice.*\[5\]"):
        build(dumps, tmp_path / "geo.sqlite")


def test_short_rows_name_file_and_line(dumps: Inputs, tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("1\tonly two\n")
    dumps.geonames = [bad]
    with pytest.raises(ValueError, match=r"bad.txt:1: expected 19"):
        build(dumps, tmp_path / "geo.sqlite")


def test_cli_writes_the_database(dumps: Inputs, tmp_path: Path) -> None:
    out = tmp_path / "cli.sqlite"
    main(["--out", str(out), "--geonames", str(dumps.geonames[0]), "--country-info", str(dumps.country_info)])
    assert sqlite3.connect(out).execute("SELECT COUNT(*) FROM entity WHERE entity_type='city'").fetchone() == (4,)
