"""Integration helpers: the template's tables by logical id, and a DynamoDB request counter."""

from __future__ import annotations

from collections import Counter
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterator

TABLE_ENV = {
    "ACCOUNTS_TABLE": "AccountsTable",
    "API_KEYS_TABLE": "ApiKeysTable",
    "LEDGER_TABLE": "LedgerTable",
    "RATE_LIMIT_TABLE": "RateLimitTable",
    "SIGNUPS_TABLE": "SignupsTable",
    "CALLS_TABLE": "CallsTable",
    "OAUTH_TABLE": "OAuthTable",
}
"""What `!Ref <Table>` resolves to locally: the logical id (tests/conftest.py's `aws` fixture)."""

READS = frozenset({"GetItem", "Query", "Scan", "BatchGetItem", "TransactGetItems"})
WRITES = frozenset({"PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems"})


class RequestCounter(Counter[str]):
    """DynamoDB API calls by operation name, as botocore sends them."""

    @property
    def reads(self) -> int:
        return sum(n for op, n in self.items() if op in READS)

    @property
    def writes(self) -> int:
        return sum(n for op, n in self.items() if op in WRITES)


@contextmanager
def count_requests(*clients: Any) -> Iterator[RequestCounter]:
    """Count every request the `clients` make inside the block (botocore's before-call event)."""
    counter = RequestCounter()

    def on_call(model: Any, **_kw: Any) -> None:
        counter[model.name] += 1

    event = "before-call.dynamodb.*"
    for client in clients:
        client.meta.events.register(event, on_call, unique_id="tests-count-requests")
    try:
        yield counter
    finally:
        for client in clients:
            client.meta.events.unregister(event, unique_id="tests-count-requests")


def router_env(**overrides: str) -> dict[str, str]:
    """The router's template environment as the local default resolves it (tables by logical id), plus overrides."""
    from localdev import environment, template

    router = next(f for f in template.functions() if f.service == "router")
    return {**environment.for_function(router), **overrides}
