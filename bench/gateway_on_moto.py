"""The router's gateway over the real DynamoDB adapters, against moto: what each kind of call reads and writes.

`bench/capacity.py` tallies the write units per item and `bench/router.py` the requests per operation,
over the same account, tools and kinds of call (`KINDS`).
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

KINDS: dict[str, tuple[str, dict[str, str]]] = {
    "free": ("bench_free", {}),
    "billed": ("bench_billed", {}),
    "refunded": ("bench_failing", {}),
    "idempotent": ("bench_billed", {"idempotency-key": "bench-1"}),
    "replay": ("bench_billed", {"idempotency-key": "bench-1"}),
}
"""Kind of call → (tool, extra headers): a free tool, a 2-credit one, one whose error result is refunded,
one with an Idempotency-Key and the replay of that key."""


class Invoker:
    """Every tool answers at once; `bench_failing` with an error (refunded); tasks are queued in `started`."""

    def __init__(self) -> None:
        self.started: list[Any] = []

    def invoke(self, service: str, request: Any, *, timeout_s: float | None = None) -> Any:
        from mcp_platform.protocol.payloads import ServiceReply

        if request.tool == "bench_failing":
            return ServiceReply(structured_content={"error": "down", "is_error": True, "code": "internal"})
        return ServiceReply(structured_content={"ok": True})

    def start(self, service: str, request: Any) -> None:
        self.started.append(request)


@dataclass
class Bench:
    post: Callable[..., dict[str, Any]]
    """post(method, params, extra_headers=None) → the JSON-RPC answer (asserts HTTP 200)."""
    invoker: Invoker
    tasks: Any
    """The task store (DynamoDB + S3)."""

    def call(self, kind: str) -> dict[str, Any]:
        tool, extra = KINDS[kind]
        return self.post("tools/call", {"name": tool, "arguments": {"text": "hi"}}, extra)


@contextmanager
def gateway_on_moto(listeners: dict[str, Callable[..., None]]) -> Iterator[Bench]:
    """moto with the template's tables and buckets, an account with 1,000 credits and a key, and a gateway
    whose DynamoDB client has `listeners` (botocore event name → handler) registered."""
    from moto import mock_aws

    from localdev.store import create_buckets, create_tables
    from localdev.template import add_code_paths

    add_code_paths()
    import boto3

    from mcp_platform.auth.accounts import AccountAdmin
    from mcp_platform.auth.dynamodb import DynamoAccountStore
    from mcp_platform.billing.dynamodb import DynamoLedger
    from mcp_platform.durable_tasks.dynamodb import build_task_store
    from mcp_platform.ratelimit.limiter import DynamoRateLimiter
    from mcp_router.auth import KeyAuthenticator
    from mcp_router.dependencies import Dependencies
    from mcp_router.gateway import Gateway
    from mcp_router.http import HttpRequest
    from mcp_router.settings import RouterSettings
    from tests.support.router import fake_registry, fake_spec

    invoker = Invoker()
    with mock_aws():
        create_tables()
        create_buckets()
        ddb = boto3.client("dynamodb")
        for event, handler in listeners.items():
            ddb.meta.events.register(event, handler)
        store = DynamoAccountStore(ddb, "AccountsTable", "ApiKeysTable")
        ledger = DynamoLedger(ddb, "AccountsTable", "LedgerTable", "CallsTable")
        admin = AccountAdmin(store, ledger)
        registry = fake_registry(
            fake_spec("bench_free"),
            fake_spec("bench_billed", price=2),
            fake_spec("bench_failing", price=2),
            fake_spec("bench_task", price=2, task_support="optional"),
        )
        admin.create_account("bench", frozenset(registry.services), 1_000, account_id="acct_bench")
        key = admin.issue_key("acct_bench")
        tasks = build_task_store("TasksTable", "stagingbucket", ddb, boto3.client("s3"))
        gateway = Gateway(
            Dependencies(
                registry=registry,
                authenticator=KeyAuthenticator(store, 60),
                ledger=ledger,
                limiter=DynamoRateLimiter(ddb, "RateLimitTable"),
                invoker=invoker,
                settings=RouterSettings(),
                task_store=tasks,
            )
        )
        headers = {
            "content-type": "application/json",
            "accept": "application/json, text/event-stream",
            "authorization": f"Bearer {key}",
            "mcp-protocol-version": "2025-11-25",
        }

        def post(method: str, params: dict[str, Any], extra: dict[str, str] | None = None) -> dict[str, Any]:
            body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).encode()
            response = gateway.handle(HttpRequest("POST", "/mcp", {**headers, **(extra or {})}, body))
            assert response.status == 200, response.body
            answer: dict[str, Any] = json.loads(response.body)
            return answer

        yield Bench(post, invoker, tasks)
