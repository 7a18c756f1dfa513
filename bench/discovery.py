"""Discovery benchmark: what `tools/list` costs an agent per profile, and how well `tools_search` finds tools.

    python bench/discovery.py              # all figures
    python bench/discovery.py --misses dev         # also print one set's misses (tune on dev only)
    python bench/discovery.py --cv         # also cross-validate the embedding's share of the score

Figures:
  bytes   - `tools/list` (legacy era, one page) as JSON bytes, and estimated tokens (bytes / 4),
            for the full catalogue, `?profile=discover` and a few `?services=` profiles
  search  - top-1 / top-3 over the tasks in tests/fixtures/discovery/tasks.jsonl, split in two fixed
            halves by a hash of the query (dev: what the vocabulary was tuned on; held-out: not looked
            at while tuning), over tasks_late.jsonl (written after tuning, never tuned on) and
            tasks_fresh.jsonl (written before the embedding was tried, never tuned on), for plain BM25
            (names, descriptions, parameters; no vocabulary), BM25F with the vocabulary alone, and the
            ranking served (that mixed with the embedding)
  cv      - with --cv: the embedding's share chosen on 4 of 5 random folds of tasks.jsonl (and on all
            services but one), scored on the fold left out
  per service - top-1 / top-3 of each service's held-out and late tasks
  latency - p50 / p99 of one query over the whole catalogue (every task, 20 rounds)
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "shared"), str(ROOT / "functions" / "platform" / "router")]

from stats import percentile

from mcp_platform.catalogue.registry import Registry, load_registry
from mcp_platform.catalogue.tool_search import SEMANTIC_WEIGHT, ToolIndex
from mcp_router.tool_embedding import wordllama
from tests.support.discovery_tasks import FRESH_TASKS, LATE_TASKS, Task, accuracy, load_tasks

PLAIN_WEIGHTS = {"name": 1.0, "description": 1.0, "parameters": 1.0}
MIX_GRID = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)
"""The embedding's shares --cv chooses among."""


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--misses", choices=["dev", "held-out", "late", "fresh"], help="print this set's misses")
    parser.add_argument("--cv", action="store_true", help="cross-validate the embedding's share of the score")
    args = parser.parse_args()
    registry = load_registry()
    tasks = load_tasks()
    dev = [t for t in tasks if not t.held_out]
    held = [t for t in tasks if t.held_out]
    late = load_tasks(LATE_TASKS)
    fresh = load_tasks(FRESH_TASKS)
    if unknown := sorted({t.tool for t in [*tasks, *late, *fresh]} - {s.name for s in registry}):
        raise SystemExit(f"tasks name unknown tools: {unknown}")

    print("== tools/list per profile")
    for profile, size in list_sizes(registry):
        print(f"  {profile:32s} {size:8d} bytes  ~{size // 4:6d} tokens")

    print(
        f"== search accuracy ({len(tasks)} tasks: {len(dev)} dev, {len(held)} held-out;"
        f" {len(late)} late; {len(fresh)} fresh)"
    )
    plain = ToolIndex(registry, registry.descriptions, weights=PLAIN_WEIGHTS, vocabulary={})
    words_only = ToolIndex(registry, registry.descriptions)
    served = ToolIndex(registry, registry.descriptions, embedding=wordllama())
    for label, index in (("plain BM25", plain), ("BM25F+vocab", words_only), ("served", served)):
        for half, subset in (("dev", dev), ("held-out", held), ("late", late), ("fresh", fresh)):
            top1, top3, _ = accuracy(index, subset)
            print(f"  {label:11s} {half:9s} top-1 {top1:.3f}  top-3 {top3:.3f}")
    if args.cv:
        cross_validate(registry, tasks)
    print("== per service, held-out, late and fresh tasks together (served): top-1 / top-3 (tasks)")
    unseen = [*held, *late, *fresh]
    service_of = {spec.name: spec.service for spec in registry}
    rows = []
    for service in registry.services:
        subset = [t for t in unseen if service_of[t.tool] == service]
        if subset:
            top1, top3, _ = accuracy(served, subset)
            rows.append(f"{service} {top1:.2f}/{top3:.2f} ({len(subset)})")
    for i in range(0, len(rows), 4):
        print("  " + "   ".join(f"{row:26s}" for row in rows[i : i + 4]).rstrip())
    if args.misses:
        _, _, misses = accuracy(served, {"dev": dev, "held-out": held, "late": late, "fresh": fresh}[args.misses])
        for task, names in misses:
            print(f"  miss: {task.query!r} → want {task.tool}, got {names}")

    print("== latency (served index, whole catalogue)")
    timings = []
    for _ in range(20):
        for task in tasks:
            started = time.perf_counter()
            served.search(task.query, limit=5)
            timings.append((time.perf_counter() - started) * 1000)
    p99 = percentile(timings, 0.99)
    print(f"  p50 {statistics.median(timings):.2f} ms  p99 {p99:.2f} ms  ({len(timings)} queries)")
    return 0


def cross_validate(registry: Registry, tasks: list[Task]) -> None:
    """Choose the embedding's share on all folds but one (best top-1 + top-3), score it on that one."""
    indexes = {
        mix: ToolIndex(registry, registry.descriptions, embedding=wordllama(), semantic_weight=mix) for mix in MIX_GRID
    }

    def total(mix: float, subset: list[Task]) -> float:
        top1, top3, _ = accuracy(indexes[mix], subset)
        return top1 + top3

    service_of = {spec.name: spec.service for spec in registry}
    shuffled = sorted(tasks, key=lambda t: hashlib.sha256(b"fold" + t.query.encode()).digest())
    schemes = {
        "5 random folds": [shuffled[i::5] for i in range(5)],
        "leave one service out": [
            [t for t in tasks if service_of[t.tool] == s] for s in sorted({service_of[t.tool] for t in tasks})
        ],
    }
    print(f"== cross-validation over tasks.jsonl (served share {SEMANTIC_WEIGHT})")
    for scheme, folds in schemes.items():
        top1 = top3 = 0.0
        chosen = []
        for fold in folds:
            train = [t for t in tasks if t not in fold]
            # Ties go to the share nearest the middle: no reason to prefer either extreme.
            mix = max(MIX_GRID, key=lambda m: (total(m, train), -abs(m - 0.5)))
            chosen.append(mix)
            fold_top1, fold_top3, _ = accuracy(indexes[mix], fold)
            top1 += fold_top1 * len(fold)
            top3 += fold_top3 * len(fold)
        shares = ", ".join(f"{m:g}" for m in sorted(set(chosen)))
        print(f"  {scheme:22s} top-1 {top1 / len(tasks):.3f}  top-3 {top3 / len(tasks):.3f}  (shares chosen: {shares})")


LIST_PROFILES = ("", "profile=discover", "services=geo", "services=geo,fetch", "tools=fetch,search_web")
"""What `bytes` measures: the whole catalogue, discover, and a few narrowed connections."""


def list_sizes(registry: Registry) -> list[tuple[str, int]]:
    """Bytes of the `tools/list` result per profile, through the router's gateway (in-memory stores).

    With PUBLIC_URL set (as in `make dev` and a configured stack), so each tool carries its icon.
    """
    from mcp_platform.auth.accounts import AccountAdmin
    from mcp_platform.auth.memory import MemoryAccountStore
    from mcp_platform.billing.memory import MemoryLedger
    from mcp_platform.ratelimit.limiter import MemoryRateLimiter
    from mcp_router.auth import KeyAuthenticator
    from mcp_router.dependencies import Dependencies
    from mcp_router.gateway import Gateway
    from mcp_router.http import HttpRequest
    from mcp_router.settings import RouterSettings

    store = MemoryAccountStore()
    ledger = MemoryLedger(store)
    admin = AccountAdmin(store, ledger)
    admin.create_account("bench", frozenset(registry.services), 0, account_id="acct_bench")
    key = admin.issue_key("acct_bench")
    settings = RouterSettings(public_url="https://api.example.com")
    deps = Dependencies(registry, KeyAuthenticator(store, 60), ledger, MemoryRateLimiter(), _NoInvoker(), settings)
    gateway = Gateway(deps)
    headers = {"content-type": "application/json", "accept": "application/json", "authorization": f"Bearer {key}"}
    request = orjson.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    sizes = []
    for query in LIST_PROFILES:
        response = gateway.handle(HttpRequest("POST", "/mcp", headers, request, query=query))
        reply = orjson.loads(response.body)
        assert "result" in reply, reply
        result = reply["result"]
        assert "nextCursor" not in result, "one page holds the whole list"
        sizes.append((f"?{query}" if query else "(all tools)", len(orjson.dumps(result))))
    return sizes


class _NoInvoker:
    def invoke(self, service: str, request: object, *, timeout_s: float | None = None) -> object:
        raise AssertionError("tools/list invokes nothing")


if __name__ == "__main__":
    raise SystemExit(main())
