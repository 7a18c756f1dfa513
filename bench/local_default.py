"""The local default (`make dev`) under a long run of billed calls, as the benchmark's acceptance check drives it.

    python bench/local_default.py                  # 2,000 calls, 8 in flight
    python bench/local_default.py --calls 6047 --in-flight 8

Starts `python -m localdev` on free loopback ports with its own defaults (only the ports and the key
are set), then sends `promptguard_check` calls through the official MCP client: one session per
call in flight, each calling the tool in turn, over the texts of the prompt-injection benchmark
(`../shared/bench-data/prompt-injection/dev.jsonl`; short generated texts without it). Every call is
billed: the rate limit, the reservation and the ledger entry all go through the local store (moto, in a
process of its own: `localdev/store_process.py`). Prints calls a second (the issue's target is 150 at 8 in
flight), p50/p99 client latency, the p50 of the first and of the last tenth (a store whose cost grows with
its contents shows here), the CPU time per billed call of the router's process, of the store's and of this
client (steadier than calls a second on a shared machine: each process runs Python on at most one core at
a time, so 150 calls a second needs each at most ~6.7 ms a call, and all three within the machine's
cores) and the calls that failed (none should: a failed call is what an acceptance check counts against
the tool).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import httpx
from mcp import Client
from reference import reference_path
from stats import percentile

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "shared"))

from mcp_platform.auth.keys import generate_key

TARGET_CALLS_PER_S = 150
"""Issue 35's target for `make dev`: billed calls a second at 8 in flight on a 2-core machine."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def texts(count: int) -> list[dict[str, str]]:
    """`count` (text, context) arguments: the benchmark's rows in turn, or generated ones without it."""
    path = reference_path("bench-data", "prompt-injection", "dev.jsonl")
    if path.exists():
        rows = [json.loads(line) for line in path.open(encoding="utf-8")]
        return [{"text": rows[i % len(rows)]["text"], "context": rows[i % len(rows)]["context"]} for i in range(count)]
    return [{"text": f"Summarise report number {i} for the board.", "context": "user_prompt"} for i in range(count)]


def start_server() -> tuple[subprocess.Popen[bytes], str]:
    """`python -m localdev` with its defaults on free ports; its endpoint with the key as URL credentials."""
    port, key = _free_port(), generate_key()
    env = {**os.environ, "PORT": str(port), "LOCAL_AWS_PORT": str(_free_port()), "DEV_API_KEY": key}
    server = subprocess.Popen([sys.executable, "-m", "localdev"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit("the local server exited while starting")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                return server, f"http://dev:{key}@127.0.0.1:{port}/mcp"
        except httpx.TransportError:
            pass
        time.sleep(0.3)
    server.kill()
    raise SystemExit("the local server did not start within 120 s")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process `pid` and all its threads so far (Linux `/proc`)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """The processes `pid` started (Linux `/proc`): the store process of `make dev`, and any helper."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found.extend(int(child) for child in (task / "children").read_text().split())
    return found


def cpu_by_process(pid: int) -> dict[int, float]:
    """CPU seconds so far of `pid` and of each process it started."""
    return {p: cpu_seconds(p) for p in [pid, *children(pid)]}


async def drive(url: str, arguments: list[dict[str, str]], in_flight: int) -> tuple[list[float], list[str], float]:
    """Each argument sent once, `in_flight` sessions at a time: latencies in call order, failures, wall time."""
    latencies: list[float] = [0.0] * len(arguments)
    failures: list[str] = []
    todo = iter(range(len(arguments)))

    async def session() -> None:
        async with Client(url) as client:
            page = await client.list_tools()  # every page, as an agent does first: results are then schema-checked
            while page.next_cursor is not None:
                page = await client.list_tools(cursor=page.next_cursor)
            for i in todo:
                started = time.perf_counter()
                try:
                    result: Any = await client.call_tool("promptguard_check", arguments[i])
                    if result.is_error or "score" not in (result.structured_content or {}):
                        failures.append(str(result.content)[:160])
                except Exception as exc:  # what a client sees as a failed call
                    failures.append(f"{type(exc).__name__}: {exc}"[:160])
                latencies[i] = time.perf_counter() - started

    started = time.perf_counter()
    async with anyio.create_task_group() as group:
        for _ in range(in_flight):
            group.start_soon(session)
    return latencies, failures, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--in-flight", type=int, default=8)
    args = parser.parse_args()
    server, url = start_server()
    try:
        cpu_before, client_before = cpu_by_process(server.pid), time.process_time()
        latencies, failures, wall = anyio.run(drive, url, texts(args.calls), args.in_flight)
        cpu_after, client_cpu = cpu_by_process(server.pid), time.process_time() - client_before
        router_cpu = cpu_after.pop(server.pid) - cpu_before.pop(server.pid)
        store_cpu = max((cpu_after[p] - cpu_before.get(p, 0.0) for p in cpu_after), default=0.0)
    finally:
        server.terminate()
        server.wait(timeout=15)
    tenth = max(1, len(latencies) // 10)
    print(f"{args.calls} billed promptguard_check calls through make dev, {args.in_flight} in flight")
    p50, p99 = 1000 * percentile(latencies, 0.5), 1000 * percentile(latencies, 0.99)
    print(
        f"  {args.calls / wall:.1f} calls/s (target >= {TARGET_CALLS_PER_S} at 8 in flight; {wall:.0f} s); "
        f"latency p50 {p50:.0f} ms, p99 {p99:.0f} ms"
    )
    first, last = statistics.median(latencies[:tenth]), statistics.median(latencies[-tenth:])
    print(f"  p50 of the first tenth {1000 * first:.0f} ms, of the last tenth {1000 * last:.0f} ms")
    budget = 1000 / TARGET_CALLS_PER_S
    for name, cpu in (("router process", router_cpu), ("store process", store_cpu)):
        print(
            f"  {name} CPU {1000 * cpu / args.calls:.1f} ms per billed call ({100 * cpu / wall:.0f} % of a core; "
            f"<= {budget:.1f} ms each for {TARGET_CALLS_PER_S} calls/s)"
        )
    total, cores = 1000 * (router_cpu + store_cpu + client_cpu) / args.calls, os.cpu_count() or 1
    print(
        f"  with this client's {1000 * client_cpu / args.calls:.1f} ms: {total:.1f} ms of CPU per call "
        f"(on {cores} cores, {TARGET_CALLS_PER_S} calls/s needs <= {1000 * cores / TARGET_CALLS_PER_S:.1f})"
    )
    print(f"  failed calls: {len(failures)}")
    for failure in failures[:5]:
        print(f"    {failure}")


if __name__ == "__main__":
    main()
