"""`python -m herbal_service.importer`: build the herbal database from Dr. Duke's CSV dump.

Example (the official dump, figshare article 24660351):
    python -m herbal_service.importer --out herbal.sqlite --source Duke-Source-CSV.zip --data-version 2023-11
Several sources may be given (folders or zip files); for a table held by more than one, the last wins.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path

from herbal_service.importer.build import Inputs, build
from herbal_service.importer.dump import DumpError


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m herbal_service.importer", description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="SQLite file to write (replaced).")
    parser.add_argument(
        "--source", type=Path, nargs="+", required=True, help="Duke-Source-CSV.zip or folders of the dump's CSV files."
    )
    parser.add_argument("--data-version", default="", help="Recorded in meta (default: the build time).")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    started = time.monotonic()
    try:
        counts = build(Inputs(sources=args.source, data_version=args.data_version), args.out)
    except DumpError as exc:
        sys.exit(f"herbal importer: {exc}")
    size_mb = args.out.stat().st_size / 1e6
    logging.info("wrote %s (%.1f MB) in %.1f s: %s", args.out, size_mb, time.monotonic() - started, counts)


if __name__ == "__main__":
    main()
