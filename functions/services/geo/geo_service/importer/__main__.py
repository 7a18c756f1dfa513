"""`python -m geo_service.importer`: build the geo database from GeoNames dump files.

Example (the real dumps, from the GeoNames export directory):
    python -m geo_service.importer --out geo.sqlite --geonames allCountries.txt \\
        --country-info countryInfo.txt --admin1 admin1CodesASCII.txt --admin2 admin2Codes.txt \\
        --alternate-names alternateNamesV2.txt --data-version 2025-01-01
"""

from __future__ import annotations

import argparse
import logging
import time
from pathlib import Path

from geo_service.importer.build import Inputs, build


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m geo_service.importer", description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="SQLite file to write (replaced).")
    parser.add_argument(
        "--geonames",
        type=Path,
        nargs="+",
        required=True,
        help="allCountries-format files (cities, places, marine features, coast points).",
    )
    parser.add_argument("--country-info", type=Path, required=True, help="countryInfo.txt")
    parser.add_argument("--admin1", type=Path, nargs="*", default=[], help="admin1CodesASCII.txt")
    parser.add_argument("--admin2", type=Path, nargs="*", default=[], help="admin2Codes.txt")
    parser.add_argument("--alternate-names", type=Path, nargs="*", default=[], help="alternateNamesV2.txt")
    parser.add_argument("--min-city-population", type=int, default=0, help="Skip smaller populated places.")
    parser.add_argument("--data-version", default="", help="Recorded in meta (default: the build time).")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    started = time.monotonic()
    counts = build(
        Inputs(
            geonames=args.geonames,
            country_info=args.country_info,
            admin1=args.admin1,
            admin2=args.admin2,
            alternate_names=args.alternate_names,
            min_city_population=args.min_city_population,
            data_version=args.data_version,
        ),
        args.out,
    )
    size_mb = args.out.stat().st_size / 1e6
    logging.info("wrote %s (%.1f MB) in %.1f s: %s", args.out, size_mb, time.monotonic() - started, counts)


if __name__ == "__main__":
    main()
