"""Capacity on paper: DynamoDB writes per item per call kind, and the ceilings they imply.

    python bench/capacity.py              # the table and the ceilings
    python bench/capacity.py --json       # the same figures as JSON

Each kind of call runs once through the router's gateway with the real DynamoDB adapters against
moto; every write request is counted by the item it touches (a botocore hook reads the request):
the account item, a ledger entry, the call record, the account's rate-limit counter, the task item,
and the writes the calls table's sparse `open` index takes (a record that gains or loses
`open_shard`). A write inside TransactWriteItems costs 2 write units, a plain one 1 (items here are
under 1 KB). The ceilings divide DynamoDB's published per-partition limit (1,000 write units/s) by
what one call puts on the hottest item of each kind, and the per-table default quota (40,000 write
units/s on demand, adjustable) by what one call puts on a table. Figures are per region.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "WARNING")

from bench.gateway_on_moto import KINDS, gateway_on_moto

PARTITION_WRITE_UNITS = 1_000
"""DynamoDB: one partition (one item's key, one index key value) absorbs at most 1,000 write units/s."""
PARTITION_READ_UNITS = 3_000
TABLE_WRITE_UNITS = 40_000
"""DynamoDB on-demand: default per-table throughput quota, write request units/s (adjustable by AWS support)."""
TARGET_BILLED_PER_S = 10_000
"""The stated target: billed calls per second per region."""

ITEMS = {
    "AccountsTable": "account",
    "LedgerTable": "ledger entry",
    "CallsTable": "call record",
    "RateLimitTable": "rate counter",
    "TasksTable": "task",
}


class Tally:
    """Write units per item kind (and open-index writes) of the requests seen since `reset`."""

    def __init__(self) -> None:
        self.units: dict[str, int] = {}
        self.writes: dict[str, int] = {}

    def reset(self) -> None:
        self.units, self.writes = {}, {}

    def before(self, model: Any, params: dict[str, Any], context: dict[str, Any], **_: Any) -> None:
        context["capacity_body"] = json.loads(params.get("body") or b"{}")

    def after(self, model: Any, http_response: Any, context: dict[str, Any], **_: Any) -> None:
        """A refused conditional write still costs its write units, but changes no index."""
        body, landed = context.get("capacity_body", {}), http_response.status_code == 200
        if model.name == "TransactWriteItems":
            for entry in body["TransactItems"]:
                ((action, request),) = entry.items()
                if action != "ConditionCheck":
                    self._add(request, 2, landed)
        elif model.name in ("PutItem", "UpdateItem", "DeleteItem"):
            self._add(body, 1, landed)

    def _add(self, request: dict[str, Any], units: int, landed: bool) -> None:
        item = ITEMS.get(request["TableName"], request["TableName"])
        self.units[item] = self.units.get(item, 0) + units
        self.writes[item] = self.writes.get(item, 0) + 1
        expression = request.get("UpdateExpression", "")
        indexed = "open_shard" in request.get("Item", {}) or "REMOVE open_shard" in expression
        if landed and item == "call record" and indexed:
            self.units["open index shard"] = self.units.get("open index shard", 0) + 1
            self.writes["open index shard"] = self.writes.get("open index shard", 0) + 1


def measure() -> dict[str, dict[str, dict[str, int]]]:
    """{kind: {"writes": {item: n}, "units": {item: n}}} for one call of each kind."""
    from mcp_platform.durable_tasks.worker import run_task
    from mcp_platform.protocol.payloads import ServiceReply

    tally = Tally()
    with gateway_on_moto({"before-call.dynamodb.*": tally.before, "after-call.dynamodb.*": tally.after}) as bench:

        def call(kind: str) -> dict[str, dict[str, int]]:
            tally.reset()
            bench.call(kind)
            return {"writes": dict(tally.writes), "units": dict(tally.units)}

        def task() -> dict[str, dict[str, int]]:
            tally.reset()
            created = bench.post(
                "tools/call", {"name": "bench_task", "arguments": {"text": "hi"}, "task": {"ttl": 60_000}}
            )
            task_id = created["result"]["task"]["taskId"]
            for request in bench.invoker.started:
                run_task(request, lambda: ServiceReply(structured_content={"ok": True}), bench.tasks, 0.0)
            bench.post("tasks/get", {"taskId": task_id})  # the poll that concludes and settles it
            return {"writes": dict(tally.writes), "units": dict(tally.units)}

        bench.call("free")  # warms the key cache
        return {**{kind: call(kind) for kind in KINDS}, "task": task()}


def ceilings(figures: dict[str, dict[str, dict[str, int]]], shards: int) -> dict[str, Any]:
    """Calls/s each kind can reach before one partition (or the default table quota) is full."""
    out: dict[str, Any] = {}
    for kind, seen in figures.items():
        units = seen["units"]
        per_account = min(
            (PARTITION_WRITE_UNITS // units[i] for i in ("account", "rate counter") if units.get(i)),
            default=None,
        )
        per_shard = PARTITION_WRITE_UNITS // units["open index shard"] if units.get("open index shard") else None
        table_units = {item: n for item, n in units.items() if item != "open index shard"}
        platform = min(
            [TABLE_WRITE_UNITS // n for n in table_units.values() if n] + ([per_shard * shards] if per_shard else []),
            default=None,
        )
        out[kind] = {"per_account": per_account, "per_open_shard": per_shard, "platform": platform}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--shards", type=int, default=None, help="CallsOpenShards (default: the template's)")
    args = parser.parse_args()
    os.environ.update(
        AWS_DEFAULT_REGION="us-east-1",
        AWS_ACCESS_KEY_ID="x",
        AWS_SECRET_ACCESS_KEY="x",
        POWERTOOLS_TRACE_DISABLED="true",
        POWERTOOLS_METRICS_DISABLED="true",
    )
    from mcp_platform.billing.dynamodb import DEFAULT_OPEN_SHARDS

    shards = args.shards or DEFAULT_OPEN_SHARDS
    figures = measure()
    limits = ceilings(figures, shards)
    if args.json:
        print(json.dumps({"writes": figures, "ceilings": limits, "shards": shards}, indent=2))
        return
    items = [*ITEMS.values(), "open index shard"]
    print("write requests (write units) per item, one call of each kind:")
    print(f"{'kind':<12}" + "".join(f"{i:>18}" for i in items))
    for kind, seen in figures.items():
        cells = (f"{seen['writes'].get(i, 0)} ({seen['units'].get(i, 0)})" for i in items)
        print(f"{kind:<12}" + "".join(f"{c:>18}" for c in cells))
    print(
        f"\nceilings (calls/s) at {PARTITION_WRITE_UNITS:,} write units/s per partition, "
        f"{TABLE_WRITE_UNITS:,}/s per table, CallsOpenShards={shards}:"
    )
    print(f"{'kind':<12}{'per account':>14}{'per open shard':>16}{'platform':>12}")
    for kind, ceiling in limits.items():
        cells = (f"{ceiling[k]:,}" if ceiling[k] else "-" for k in ("per_account", "per_open_shard", "platform"))
        print(f"{kind:<12}" + "".join(f"{c:>{w}}" for c, w in zip(cells, (14, 16, 12), strict=True)))
    billed_index = figures["billed"]["units"].get("open index shard", 0)
    needed = -(-TARGET_BILLED_PER_S * billed_index // PARTITION_WRITE_UNITS)
    print(f"\nshards the target of {TARGET_BILLED_PER_S:,} billed calls/s needs: {needed} (configured: {shards})")


if __name__ == "__main__":
    main()
