"""Herbal service latency per tool, in-process (app.handle: validation + queries + shaping), p50/p99 in ms.

    python bench/herbal.py                                   # a full-size database (see below)
    python bench/herbal.py --db build/herbal/herbal.sqlite   # an existing build (e.g. from the official dump)

Without --db it builds, with the real importer, a database of the full release's size: the real
tables of `--source` (default ../shared/data/duke-phytochem, the partial 2017 copy: 2,376 plants,
29,585 chemicals, 28,929 chemical activities; else tests/fixtures/herbal/dump) plus FARMACY_NEW and
ETHNOBOT written here in the official format with SYNTHETIC rows at the published size (99,280
plant-chemical links, skewed so a few plants have over a thousand constituents, half of them
chemicals that have activities). The figures measure the queries, not the data.
Cases cycle through random herbs and activities and always include the heaviest ones. p50/p99/max
are warm wall-clock times (after one call per case), `cpu p99` the same calls' CPU time (this
thread's; on a shared machine wall time also counts waiting for a CPU); `cold` is the slowest
first call of a case (the first herbal_interactions of a container also builds its caution map).
"""

from __future__ import annotations

import argparse
import csv
import logging
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "shared"), str(ROOT / "functions" / "services" / "herbal")]
os.environ.setdefault("POWERTOOLS_TRACE_DISABLED", "true")
os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "ERROR")

from reference import reference_path
from service_env import use_service_environment
from stats import percentile

use_service_environment("herbal")

TARGET_P99_MS = 10.0
SHARED_DUMP = reference_path("data", "duke-phytochem")
FIXTURE_DUMP = ROOT / "tests" / "fixtures" / "herbal" / "dump"
PARTS = ["LF", "RT", "FL", "SD", "FR", "BK", "PL", "RH", "EO", "ST"]


def _read(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="latin-1", newline="") as handle:
        return list(csv.DictReader(handle))


def write_synthetic_tables(source: Path, out: Path, links: int, ethno: int, rng: random.Random) -> None:
    """FARMACY_NEW and ETHNOBOT in the official format, synthetic rows over the real plants and chemicals."""
    plants = _read(source / "FNFTAX.csv")
    chemicals = [r["CHEM"] for r in _read(source / "CHEMICALS.csv")]
    active = sorted({r["CHEM"] for r in _read(source / "AGGREGAC.csv")})
    weights = [1 / (rank + 1) ** 0.8 for rank in range(len(plants))]  # a few plants hold many links
    with (out / "FARMACY_NEW.csv").open("w", encoding="latin-1", newline="") as handle:
        writer = csv.writer(handle, quoting=csv.QUOTE_ALL, lineterminator="\n")
        handle.write("FNFNUM,CHEM,PPCO,AMT_LO,AMT_HI,REFERENCE,TRACE,LT\n")
        for plant in rng.choices(plants, weights, k=links):
            chem = rng.choice(active) if rng.random() < 0.5 else rng.choice(chemicals)
            low = rng.randint(1, 5000)
            writer.writerow([plant["FNFNUM"], chem, rng.choice(PARTS), low, low * rng.randint(1, 20), "15", "", ""])
    uses = ["Cold", "Fever", "Tonic", "Wound", "Cough", "Diuretic", "Nausea", "Sedative", "Cancer", "Dysentery"]
    countries = ["China", "India", "USA", "Mexico", "Peru", "Nigeria", "Germany", "Turkey", "Brazil", "Iran"]
    with (out / "ETHNOBOT.csv").open("w", encoding="latin-1", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        handle.write("ACTIVITY,GENUS,SPECIES,FAMILY,COUNTRY,REFERENCE\n")
        for plant in rng.choices(plants, weights, k=ethno):
            writer.writerow([rng.choice(uses), plant["GENUS"], plant["SPECIES"], plant["FAMILY"],
                             rng.choice(countries), "15"])  # fmt: skip


def cases(db: Any, rng: random.Random) -> dict[str, list[dict[str, Any]]]:
    herbs = db.all("SELECT herb_id, scientific_name, common_names FROM herb ORDER BY herb_id")
    heavy = [r[0] for r in db.all("SELECT herb_id FROM constituent GROUP BY herb_id ORDER BY COUNT(*) DESC LIMIT 3")]
    picks = [str(h) for h in heavy] + [r["scientific_name"] for r in rng.sample(herbs, min(20, len(herbs)))]
    commons = [name for r in herbs for name in __import__("json").loads(r["common_names"])]
    top_activities = [r[0] for r in db.all(
        "SELECT a.activity FROM herb_activity ha JOIN activity a ON a.key = ha.activity_key"
        " GROUP BY ha.activity_key ORDER BY COUNT(*) DESC LIMIT 5")]  # fmt: skip
    activities = top_activities + [r[0] for r in db.all(
        "SELECT a.activity FROM activity a WHERE EXISTS (SELECT 1 FROM herb_activity ha WHERE ha.activity_key = a.key)"
        " ORDER BY random() LIMIT 10")]  # fmt: skip
    words = [n.split()[0][:4] for n in rng.sample(commons, min(10, len(commons)))]
    return {
        "herbal_status": [{}],
        "herbal_search": [{"name": w} for w in words]
        + [{"name": n} for n in rng.sample(commons, min(10, len(commons)))],
        "herbal_get": [{"herb": p} for p in picks],
        "herbal_constituents": [{"herb": p} for p in picks] + [{"herb": str(heavy[0]), "part": "Leaf"}]
        if heavy
        else [],
        "herbal_by_activity": [{"activity": a} for a in activities],
        "herbal_interactions": [{"herb": p} for p in picks],
    }


def _call(app: Any, tool: str, arguments: dict[str, Any], request_id: str) -> float:
    t0 = time.perf_counter()
    app.handle({"tool": tool, "arguments": arguments, "account_id": "b", "request_id": request_id})
    return (time.perf_counter() - t0) * 1000


def bench(db_path: Path, calls: int, rng: random.Random) -> float:
    from herbal_service.app import app
    from herbal_service.store import HerbalDb, use_db

    started = time.perf_counter()
    db = HerbalDb(db_path)
    db.one("SELECT scientific_name FROM herb LIMIT 1")
    opened = time.perf_counter() - started
    use_db(db)
    counts = ", ".join(f"{name} {info['rows']:,}" for name, info in db.tables.items())
    print(
        f"\n{db_path.name}: {db_path.stat().st_size / 1e6:.1f} MB; open + first query {opened * 1000:.1f} ms\n{counts}"
    )
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs: wall figures include waiting for a CPU")
    print(f"{'tool':<22} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'cpu p99':>8} {'cold ms':>8}  errors")
    worst = 0.0
    for tool, tool_cases in cases(db, rng).items():
        if not tool_cases:
            continue
        # First call of each case: pages not yet in SQLite's cache (what a new container's first calls pay).
        cold = max(_call(app, tool, case, "warm") for case in tool_cases)
        timings, cpu, errors = [], [], 0
        for i in range(calls):
            t0, c0 = time.perf_counter(), time.thread_time()
            reply = app.handle({"tool": tool, "arguments": tool_cases[i % len(tool_cases)], "account_id": "b",
                                "request_id": str(i)})  # fmt: skip
            timings.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.thread_time() - c0) * 1000)
            errors += reply.is_error
        p99, cpu_p99 = percentile(timings, 0.99), percentile(cpu, 0.99)
        worst = max(worst, cpu_p99)
        print(f"{tool:<22} {statistics.median(timings):8.2f} {p99:8.2f} {max(timings):8.2f} {cpu_p99:8.2f}"
              f" {cold:8.2f}  {errors}")  # fmt: skip
    print(f"worst cpu p99: {worst:.2f} ms (target <= {TARGET_P99_MS:g} ms)")
    use_db(None)
    return worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, help="An existing herbal database (skips the synthetic build).")
    parser.add_argument("--source", type=Path, default=SHARED_DUMP if SHARED_DUMP.exists() else FIXTURE_DUMP)
    parser.add_argument("--links", type=int, default=99_280, help="Synthetic FARMACY_NEW rows.")
    parser.add_argument("--ethno", type=int, default=50_000, help="Synthetic ETHNOBOT rows.")
    parser.add_argument("--calls", type=int, default=200, help="Calls per tool (cycling through its cases).")
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    logging.getLogger().setLevel(logging.ERROR)
    rng = random.Random(args.seed)
    if args.db:
        bench(args.db, args.calls, rng)
        return
    from herbal_service.importer.build import Inputs, build

    with tempfile.TemporaryDirectory(prefix="herbal-bench-") as tmp:
        work = Path(tmp)
        write_synthetic_tables(args.source, work, args.links, args.ethno, rng)
        started = time.perf_counter()
        build(Inputs(sources=[args.source, work], data_version="bench (synthetic links)"), work / "bench.sqlite")
        print(f"built from {args.source} + synthetic FARMACY_NEW/ETHNOBOT in {time.perf_counter() - started:.1f} s")
        bench(work / "bench.sqlite", args.calls, rng)


if __name__ == "__main__":
    main()
