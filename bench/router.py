"""Router benchmark: throughput, latency, import time and DynamoDB requests per call.

    python bench/router.py            # all figures (needs `wrk`: apt-get install wrk)
    python bench/router.py --seconds 5

Three servers, each one uvicorn worker on loopback, driven by the same wrk
load (1 thread, 32 connections, POST tools/call hello_ping):
  router    - our router with every service in-process (each call goes through
              the service's Lambda handler); the key is cached and storage is
              the in-memory implementation of the same ports (AccountStore,
              Ledger, RateLimiter), so the figure is the router's own cost, not
              DynamoDB's; nothing blocks, so requests are handled on the event
              loop as in Lambda (the local default, whose stores are moto over
              HTTP, uses worker threads)
  sdk       - the official MCP Python SDK's stateless JSON server, same tool
  router-direct - the same, but hello is called through `ServiceApp.handle`
              (validation, logic, error path) without the Powertools Lambda
              wrapper, which in AWS runs in the service's Lambda, not the router
  starlette - a bare Starlette app returning a constant JSON-RPC reply
DynamoDB requests per call are counted against moto with the real adapters.

Cold start (`--cold-start` prints only this and the services' inits): a Lambda init as the router pays it, in fresh
processes: importing `mcp_router.lambda_entry` (which builds the clients), then the first and a
second `tools/call hello_ping` through the Lambda handler (Mangum → router → botocore), against a
moto server on loopback for DynamoDB and `localdev.invoke_api` (Lambda's Invoke API on loopback,
hello's real handler behind it). "snapstart" runs the SnapStart runtime hooks in between, as Lambda does:
before-snapshot at publish time (not paid on a cold start), then after-restore; a restored cold
start pays the restore itself (AWS's figure, see the note), the after-restore hooks and the first
request. Wall time and CPU time (the machine is shared: CPU time is the steadier figure). Then each
service's init: importing its handler module in a fresh process with its own template block.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import py_compile
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "WARNING")  # before any Logger exists: no line per call

from service_env import function_environment

KEY = "mcp_" + "b" * 43
BODY = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"hello_ping","arguments":{"name":"bench"}}}'
HEADERS = {
    "Content-Type": "application/json",
    "Accept": "application/json, text/event-stream",
    "Authorization": f"Bearer {KEY}",
    "MCP-Protocol-Version": "2025-11-25",
}


# ---------------------------------------------------------------- the three apps


class ServiceAppInvoker:
    """Calls each service's `ServiceApp.handle` (its validation, logic and error path) directly.

    In AWS the Powertools Lambda wrapper around a service runs in the service's
    own Lambda, not in the router; leaving it out measures the router's cost.
    """

    def __init__(self) -> None:
        from localdev import environment, template

        self._apps: dict[str, Any] = {}
        for service, wiring in template.service_functions().items():
            with environment.isolated(wiring):  # its cold start: settings from its own template block
                self._apps[service] = importlib.import_module(wiring.module).app

    def invoke(self, service: str, request: Any, *, timeout_s: float | None = None) -> Any:
        return self._apps[service].handle(request.model_dump(mode="json"))


def router_app(direct: bool = False) -> Any:
    from localdev.template import add_code_paths

    add_code_paths()
    from localdev.invoker import InProcessInvoker
    from mcp_platform.auth.accounts import AccountAdmin
    from mcp_platform.auth.memory import MemoryAccountStore
    from mcp_platform.billing.memory import MemoryLedger
    from mcp_platform.catalogue.registry import load_registry
    from mcp_platform.ratelimit.limiter import MemoryRateLimiter
    from mcp_router.asgi import GatewayApp
    from mcp_router.auth import KeyAuthenticator
    from mcp_router.dependencies import Dependencies
    from mcp_router.gateway import Gateway
    from mcp_router.settings import RouterSettings

    store = MemoryAccountStore()
    ledger = MemoryLedger(store)
    registry = load_registry()
    admin = AccountAdmin(store, ledger)
    admin.create_account("bench", frozenset(registry.services), 1000, account_id="acct_bench")
    admin.issue_key("acct_bench", KEY)
    settings = RouterSettings(rate_limit_per_minute=10**9)
    deps = Dependencies(
        registry=registry,
        authenticator=KeyAuthenticator(store, 60),
        ledger=ledger,
        limiter=MemoryRateLimiter(),
        invoker=ServiceAppInvoker() if direct else InProcessInvoker(),
        settings=settings,
    )
    # In-memory stores and an in-process hello never block: handled inline, as in Lambda.
    return GatewayApp(Gateway(deps), settings.max_body_bytes, offload=False)


def sdk_app() -> Any:
    from datetime import UTC, datetime

    from mcp.server.mcpserver import MCPServer

    server = MCPServer("bench", log_level="WARNING")  # its INFO line per request would slow it and flood the output

    @server.tool()
    def hello_ping(name: str | None = None) -> dict[str, str]:
        """Say hello."""
        return {"message": f"hello, {(name or '').strip() or 'world'}", "ts": datetime.now(UTC).isoformat()}

    return server.streamable_http_app(json_response=True, stateless_http=True)


def starlette_app() -> Any:
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    reply = {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "hello"}], "isError": False}}

    async def mcp(_request: Any) -> JSONResponse:
        return JSONResponse(reply)

    return Starlette(routes=[Route("/mcp", mcp, methods=["POST"])])


APPS = {
    "router": router_app,
    "router-direct": lambda: router_app(direct=True),
    "sdk": sdk_app,
    "starlette": starlette_app,
}


def serve(kind: str, port: int) -> None:
    import uvicorn

    os.environ.setdefault("POWERTOOLS_TRACE_DISABLED", "true")
    os.environ.setdefault("POWERTOOLS_METRICS_DISABLED", "true")
    os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "WARNING")
    uvicorn.run(APPS[kind](), host="127.0.0.1", port=port, log_level="error", access_log=False, workers=1)


# ---------------------------------------------------------------- load


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait(port: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"server on {port} did not start")


def _lua() -> str:
    headers = "".join(f'wrk.headers["{k}"] = "{v}"\n' for k, v in HEADERS.items())
    body = BODY.replace('"', '\\"')
    return f'wrk.method = "POST"\nwrk.body = "{body}"\n{headers}'


def _ms(value: str, unit: str) -> float:
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def load(kind: str, seconds: int, connections: int) -> dict[str, float]:
    port = _free_port()
    server = subprocess.Popen([sys.executable, __file__, "--serve", kind, "--port", str(port)], cwd=ROOT)
    try:
        _wait(port)
        with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
            script.write(_lua())
        url = f"http://127.0.0.1:{port}/mcp"
        subprocess.run(["wrk", "-t1", "-c8", "-d2s", "-s", script.name, url], capture_output=True, check=True)
        out = subprocess.run(
            ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", script.name, url],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    finally:
        server.terminate()
        server.wait()
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    pct = {p: _ms(v, u) for p, v, u in re.findall(r"^\s+(50|99)%\s+([\d.]+)(us|ms|s)$", out, re.M)}
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"rps": rps, "p50": pct["50"], "p99": pct["99"], "errors": float(non2xx.group(1)) if non2xx else 0.0}


def import_time(tracing: bool) -> float:
    """Median over 5 cold processes of importing the router's Lambda entry (building its clients, no I/O)."""
    env = {
        **os.environ,
        **function_environment("router"),
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_ACCESS_KEY_ID": "x",
        "AWS_SECRET_ACCESS_KEY": "x",
        "POWERTOOLS_TRACE_DISABLED": "false" if tracing else "true",
        "PYTHONPATH": os.pathsep.join([str(ROOT / "functions" / "platform" / "router"), str(ROOT / "shared")]),
    }
    code = "import time; t = time.perf_counter(); import mcp_router.lambda_entry; print(time.perf_counter() - t)"
    runs = [
        float(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout)
        for _ in range(5)
    ]
    return statistics.median(runs) * 1000


def dynamodb_requests() -> dict[str, dict[str, int]]:
    """DynamoDB requests per call through the gateway with the real adapters, against moto."""
    os.environ.update(
        AWS_DEFAULT_REGION="us-east-1",
        AWS_ACCESS_KEY_ID="x",
        AWS_SECRET_ACCESS_KEY="x",
        POWERTOOLS_TRACE_DISABLED="true",
        POWERTOOLS_METRICS_DISABLED="true",
        POWERTOOLS_LOG_LEVEL="WARNING",
    )
    from bench.gateway_on_moto import KINDS, gateway_on_moto

    counts: dict[str, int] = {}

    def count(event_name: str, **_: Any) -> None:
        op = event_name.rsplit(".", 1)[-1]
        counts[op] = counts.get(op, 0) + 1

    def call(bench: Any, kind: str) -> dict[str, int]:
        counts.clear()
        bench.call(kind)
        return dict(counts)

    with gateway_on_moto({"before-call.dynamodb.*": count}) as bench:
        bench.call("free")  # warms the key cache
        return {kind: call(bench, kind) for kind in KINDS}


# ---------------------------------------------------------------- cold start

COLD_KEY = "mcp_" + "c" * 43


def _api_event(body: str) -> dict[str, Any]:
    event = json.loads((ROOT / "events" / "router.json").read_text())
    event["headers"]["authorization"] = f"Bearer {COLD_KEY}"
    event["headers"]["host"] = "localhost"
    event["body"] = body
    return event


def cold_child(snapstart: bool) -> None:
    """One Lambda init in this fresh process; prints its phases as JSON (milliseconds)."""

    def clock() -> tuple[float, float]:
        return time.perf_counter(), time.process_time()

    def since(start: tuple[float, float]) -> dict[str, float]:
        wall, cpu = clock()
        return {"wall": (wall - start[0]) * 1000, "cpu": (cpu - start[1]) * 1000}

    phases: dict[str, dict[str, float]] = {}
    start = clock()
    import mcp_router.lambda_entry as entry

    phases["import"] = since(start)
    if snapstart:
        import snapshot_restore_py as hooks

        start = clock()
        for func, args, kwargs in reversed(hooks.get_before_snapshot()):
            func(*args, **kwargs)
        phases["before_snapshot"] = since(start)
        start = clock()
        for func, args, kwargs in hooks.get_after_restore():
            func(*args, **kwargs)
        phases["after_restore"] = since(start)
    from localdev.context import LambdaContext

    event = _api_event(BODY)
    for name in ("first_request", "second_request"):
        start = clock()
        response = entry.handler(event, LambdaContext("router"))
        phases[name] = since(start)
        assert response["statusCode"] == 200 and '"isError":false' in response["body"], response
    print(json.dumps(phases))


def cold_start(runs: int) -> dict[str, dict[str, dict[str, float]]]:
    """Median phases over `runs` fresh processes, without and with the SnapStart hooks."""
    import logging

    from moto.server import ThreadedMotoServer

    from localdev import template
    from localdev.invoke_api import InvokeApi
    from localdev.store import create_tables

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    store = ThreadedMotoServer(ip_address="127.0.0.1", port=_free_port(), verbose=False)
    store.start()
    # hello's handler in this process, started with its own template block (the cold child calls hello_ping)
    invoke_api = InvokeApi(prefix="bench-", functions={"hello": template.service_functions()["hello"]})
    invoke_api.start()
    try:
        host, port = store.get_host_and_port()
        endpoint = f"http://{host}:{port}"
        env = {
            **os.environ,
            **function_environment("router"),  # the tables are named by their logical ids, as create_tables makes them
            "AWS_DEFAULT_REGION": "us-east-1",
            "AWS_ACCESS_KEY_ID": "x",
            "AWS_SECRET_ACCESS_KEY": "x",
            "AWS_ENDPOINT_URL_DYNAMODB": endpoint,
            "AWS_ENDPOINT_URL_LAMBDA": invoke_api.endpoint,
            "SERVICE_FUNCTION_PREFIX": "bench-",
            "POWERTOOLS_TRACE_DISABLED": "true",
            "POWERTOOLS_METRICS_DISABLED": "true",
            "POWERTOOLS_LOG_LEVEL": "WARNING",
            "PYTHONPATH": os.pathsep.join([str(ROOT / "functions" / "platform" / "router"), str(ROOT / "shared")]),
        }
        import boto3

        from mcp_platform.auth.accounts import AccountAdmin
        from mcp_platform.auth.dynamodb import DynamoAccountStore
        from mcp_platform.billing.dynamodb import DynamoLedger

        ddb = boto3.client(
            "dynamodb", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="x", aws_secret_access_key="x"
        )
        create_tables(ddb)
        admin = AccountAdmin(
            DynamoAccountStore(ddb, "AccountsTable", "ApiKeysTable"),
            DynamoLedger(ddb, "AccountsTable", "LedgerTable", "CallsTable"),
        )
        admin.create_account("cold", frozenset({"hello"}), 10, account_id="acct_cold")
        admin.issue_key("acct_cold", COLD_KEY)
        results: dict[str, dict[str, dict[str, float]]] = {}
        for label, flag in (("plain", []), ("snapstart", ["--snapstart"])):
            samples = []
            for _ in range(runs):
                out = subprocess.run(
                    [sys.executable, __file__, "--cold-child", *flag],
                    env=env,
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout
                samples.append(json.loads(out.strip().splitlines()[-1]))
            results[label] = {
                phase: {k: statistics.median(s[phase][k] for s in samples) for k in ("wall", "cpu")}
                for phase in samples[0]
            }
        return results
    finally:
        invoke_api.stop()
        store.stop()


ROUTER_TARGET_MS = 250
SERVICE_TARGET_MS = 150


def verdict(value: float, target: float) -> str:
    """PASS when `value` is within `target`, else FAIL (one word the eye finds in the output)."""
    return "PASS" if value <= target else "FAIL"


SERVICE_INIT = (
    "import json, sys, time; cpu, wall = time.process_time(), time.perf_counter(); __import__(sys.argv[1]); "
    "print(json.dumps([(time.process_time() - cpu) * 1000, (time.perf_counter() - wall) * 1000]))"
)
FIRST_CALL = (
    "import json, sys, time; __import__(sys.argv[1]); cpu, wall = time.process_time(), time.perf_counter(); "
    "__import__(sys.argv[2]); "
    "print(json.dumps([(time.process_time() - cpu) * 1000, (time.perf_counter() - wall) * 1000]))"
)
LAZY_ENGINES = {"promptguard": "promptguard_service.check"}
"""Services whose engine loads on the first call (`runtime.service.lazy`): the module that call imports.
Its cost is the first caller's, not the init's; printed beside the inits so neither hides the other."""


def _service_env(wiring: Any) -> dict[str, str]:
    from localdev import environment

    return {
        **os.environ,
        **environment.own(wiring, {}),
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_ACCESS_KEY_ID": "x",
        "AWS_SECRET_ACCESS_KEY": "x",
        "POWERTOOLS_TRACE_DISABLED": "true",
        "POWERTOOLS_METRICS_DISABLED": "true",
        "PYTHONPATH": os.pathsep.join([str(wiring.code_dir), str(ROOT / "shared")]),
    }


def _median_of(runs: int, script: str, *arguments: str, env: dict[str, str]) -> tuple[float, float]:
    samples = [
        json.loads(
            subprocess.run(
                [sys.executable, "-c", script, *arguments], env=env, capture_output=True, text=True, check=True
            ).stdout.splitlines()[-1]
        )
        for _ in range(runs)
    ]
    return statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples)


def service_inits(runs: int) -> dict[str, tuple[float, float]]:
    """Each service's Lambda init in fresh processes: importing its handler module with its template block.

    Median (cpu, wall) ms over `runs`; a service's first request (its engines, clients) is not included.
    """
    from localdev import template

    return {
        service: _median_of(runs, SERVICE_INIT, wiring.module, env=_service_env(wiring))
        for service, wiring in template.service_functions().items()
    }


def first_calls(runs: int) -> dict[str, tuple[float, float]]:
    """What the first call adds in the services of `LAZY_ENGINES`: importing the engine after the init."""
    from localdev import template

    wirings = template.service_functions()
    return {
        service: _median_of(runs, FIRST_CALL, wirings[service].module, module, env=_service_env(wirings[service]))
        for service, module in LAZY_ENGINES.items()
    }


def print_service_inits(runs: int) -> None:
    inits = service_inits(runs)
    print(f"service init (import of the handler module), median of {runs} fresh processes (ms, cpu / wall)")
    for service, (cpu, wall) in inits.items():
        print(f"  {service:<12} {cpu:5.0f} / {wall:5.0f}  {verdict(cpu, SERVICE_TARGET_MS)}")
    within = sum(cpu <= SERVICE_TARGET_MS for cpu, _ in inits.values())
    print(
        f"  services: {within} of {len(inits)} within {SERVICE_TARGET_MS} ms cpu: "
        f"{verdict(len(inits) - within, 0)} (target: every service)"
    )
    for service, (cpu, wall) in first_calls(runs).items():
        print(f"  {service}'s first call also loads its engine ({LAZY_ENGINES[service]}): {cpu:.0f} / {wall:.0f} ms")


def compile_as_shipped() -> None:
    """Our modules' bytecode as `make build` ships it (checked-hash, next to each source); the virtualenv's
    packages have theirs from pip. Without it every cold child would compile the platform from source,
    which no deployed function does."""
    import compileall

    for tree in ("shared", "functions"):
        compileall.compile_dir(ROOT / tree, quiet=1, invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)


def print_cold_start(runs: int) -> None:
    compile_as_shipped()
    results = cold_start(runs)
    print(f"cold start, median of {runs} fresh processes (ms, wall / cpu)")
    for label, phases in results.items():
        cells = "  ".join(f"{name} {v['wall']:.0f}/{v['cpu']:.0f}" for name, v in phases.items())
        print(f"  {label:<10} {cells}")
    plain = results["plain"]
    init = {k: plain["import"][k] + plain["first_request"][k] for k in ("wall", "cpu")}
    print(
        f"  router: init without SnapStart (import + first request): {init['wall']:.0f} / {init['cpu']:.0f} ms: "
        f"{verdict(init['cpu'], ROUTER_TARGET_MS)} (target <= {ROUTER_TARGET_MS} ms cpu)"
    )
    snap = results["snapstart"]
    restored = {k: snap["after_restore"][k] + snap["first_request"][k] for k in ("wall", "cpu")}
    print(
        f"  restored cold start without the restore itself (after-restore hooks + first request): "
        f"{restored['wall']:.0f} / {restored['cpu']:.0f} ms"
    )


WRITES = {"PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem"}
READS = {"GetItem", "Query", "Scan", "BatchGetItem", "TransactGetItems"}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--serve", choices=APPS)
    parser.add_argument("--port", type=int)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--cold-start", action="store_true", help="print only the cold start figures")
    parser.add_argument("--cold-runs", type=int, default=5)
    parser.add_argument("--cold-child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--snapstart", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.port)
        return
    if args.cold_child:
        cold_child(args.snapstart)
        return
    if args.cold_start:
        print_cold_start(args.cold_runs)
        print_service_inits(args.cold_runs)
        return
    results = {kind: load(kind, args.seconds, args.connections) for kind in APPS}
    print(f"wrk: 1 thread, {args.connections} connections, {args.seconds} s; one uvicorn worker per server")
    print(f"{'server':<14} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'non-2xx':>8}")
    for kind, r in results.items():
        print(f"{kind:<14} {r['rps']:>9.0f} {r['p50']:>8.2f} {r['p99']:>8.2f} {r['errors']:>8.0f}")
    sdk, bare = results["sdk"], results["starlette"]
    for kind in ("router", "router-direct"):
        r = results[kind]
        print(
            f"{kind}: {r['rps'] / sdk['rps']:.2f}x the SDK (target >= 5x), {r['rps'] / bare['rps']:.0%} of "
            f"bare Starlette (target >= 50%), p99 {r['p99']:.2f} ms (target <= 5 ms)"
        )
    print(f"router import, tracing on  {import_time(tracing=True):.0f} ms (target <= 250 ms)")
    print(f"router import, tracing off {import_time(tracing=False):.0f} ms (target <= 250 ms)")
    print_cold_start(args.cold_runs)
    print_service_inits(args.cold_runs)
    for label, ops in dynamodb_requests().items():
        writes = sum(n for op, n in ops.items() if op in WRITES)
        reads = sum(n for op, n in ops.items() if op in READS)
        print(f"dynamodb {label:<30} writes={writes} reads={reads}  {ops}")


if __name__ == "__main__":
    main()
