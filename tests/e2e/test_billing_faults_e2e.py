"""Issue 34, as a client sees it through the official mcp client: what a usage read costs, and the ledger under
faults moto never produces (a router over the fault proxy, tests/e2e/store_faults.py)."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from typing import TYPE_CHECKING, Any

import boto3
import httpx
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from mcp_platform.billing.dynamodb import DynamoLedger
from mcp_platform.billing.lifecycle import CallBilling
from tests.e2e.routers import running_router
from tests.e2e.store_faults import StoreFaults
from tests.e2e.tool_calls import balance
from tests.support.local_store import ACCOUNTS, CALLS, LEDGER, fresh_account

if TYPE_CHECKING:
    from collections.abc import Iterator

    from tests.e2e.conftest import LocalServer

pytestmark = pytest.mark.e2e
USAGE_READ_UNITS = 10
ARGS = {"email": "ada@example.com"}
VALIDATE_PRICE = 1
SYNC_DEADLINE_PASSED_S = 120
"""Past a synchronous call's deadline (the router's 29 s), and before any task's (queue age + run + 60 s)."""


@pytest.mark.anyio
async def test_a_usage_read_takes_ten_rate_units_and_a_free_request_one(local_server) -> None:
    seen: list[tuple[int, str]] = []

    async def on_response(response: httpx.Response) -> None:
        if "x-ratelimit-remaining" in response.headers:
            seen.append((int(response.headers["x-ratelimit-remaining"]), response.headers["x-ratelimit-reset"]))

    email = f"faults-{uuid.uuid4().hex[:8]}@example.org"  # an account of its own: no other test's requests
    key = httpx.post(
        f"{local_server.base}/api/auth/register", json={"email": email, "account_type": "agent"}, timeout=10
    ).json()["api_key"]
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {key}"})
    http.event_hooks["response"].append(on_response)
    async with Client(streamable_http_client(local_server.url, http_client=http)) as client:
        for _ in range(3):  # a window that resets between two requests makes the difference meaningless
            seen.clear()
            await client.call_tool("hello_ping", {})
            await client.read_resource("credits://usage")
            await client.call_tool("hello_ping", {})
            windows = {reset for _, reset in seen[-3:]}
            if len(windows) == 1:
                break
        (tools, _), (usage, _), (after, _) = seen[-3:]
    assert tools - usage == USAGE_READ_UNITS and usage - after == 1


# -- the ledger under faults moto never produces: a router over the fault proxy (tests/e2e/store_faults.py)


@pytest.fixture(scope="module")
def store_faults(local_server: LocalServer) -> Iterator[StoreFaults]:
    with StoreFaults(int(local_server.aws_endpoint.rsplit(":", 1)[1])) as faults:
        yield faults


@pytest.fixture(scope="module")
def faulty_router(store_faults: StoreFaults) -> Iterator[str]:
    """A router instance whose DynamoDB requests pass the fault proxy."""
    with running_router(store_faults.port) as url:
        yield url


@pytest.fixture
def faults(store_faults: StoreFaults) -> Iterator[StoreFaults]:
    yield store_faults
    store_faults.rule = lambda _operation, _body: None
    store_faults.injected.clear()


def _store(server: LocalServer) -> Any:
    return boto3.client("dynamodb", endpoint_url=server.aws_endpoint, region_name="us-east-1")


def _client_of(url: str, key: str) -> Client:
    return Client(
        streamable_http_client(url, http_client=create_mcp_http_client(headers={"Authorization": f"Bearer {key}"}))
    )


def _is_debit(operation: str, body: dict[str, Any]) -> bool:
    return (
        operation == "UpdateItem"
        and body.get("TableName") == ACCOUNTS
        and "journal_shard" in body.get("UpdateExpression", "")
    )


@pytest.mark.anyio
async def test_eight_concurrent_calls_of_one_account_all_succeed_while_their_debits_meet_conflicts(
    local_server: LocalServer, faulty_router: str, faults: StoreFaults
) -> None:
    """What a batch's 8 members do in AWS: every debit is first cancelled for a conflicting transaction."""
    _, key = fresh_account(local_server.aws_endpoint, frozenset({"validate"}), 100)
    seen: set[str] = set()

    def first_debit_conflicts(operation: str, body: dict[str, Any]) -> str | None:
        if not _is_debit(operation, body):
            return None
        journal = next(iter(body["ExpressionAttributeNames"].values()))
        if journal in seen:
            return None
        seen.add(journal)
        return "TransactionConflictException"

    faults.rule = first_debit_conflicts
    async with _client_of(faulty_router, key) as client:
        results = await asyncio.gather(*(client.call_tool("validate_email", ARGS) for _ in range(8)))
        after = await balance(client)
    errors = [r.structured_content for r in results if r.is_error]
    assert errors == [], errors  # never "billing is unavailable" for a busy account
    assert len(faults.injected) == 8  # each call's debit met one conflict
    balances = sorted(r.structured_content["credits_balance"] for r in results)
    assert (balances, after) == (list(range(92, 100)), 92)  # distinct, and charged once each


@pytest.mark.anyio
@pytest.mark.parametrize("reversal_fails", [False, True], ids=["given-back", "held"])
async def test_a_charge_whose_record_cannot_be_written_says_what_stays_charged(
    local_server: LocalServer, faulty_router: str, faults: StoreFaults, reversal_fails: bool
) -> None:
    """The record's transaction is cancelled every time; the give-back transaction too when `reversal_fails`."""
    account_id, key = fresh_account(local_server.aws_endpoint, frozenset({"validate"}), 10)
    faults.rule = lambda operation, body: (
        "TransactionCanceledException"
        if operation == "TransactWriteItems"
        and account_id in json.dumps(body)
        and (reversal_fails or CALLS in json.dumps(body))
        else None
    )
    async with _client_of(faulty_router, key) as client:
        result = await client.call_tool("validate_email", ARGS)
        faults.rule = lambda _operation, _body: None
        after = await balance(client)
    held = VALIDATE_PRICE if reversal_fails else 0
    structured = result.structured_content
    assert result.is_error is True and structured["code"] == "upstream_unavailable"
    assert structured["credits_charged"] == held and after == 10 - held
    if reversal_fails:
        assert f"its {held} credits stay charged until the reconciliation gives them back" in structured["error"]
        assert "nothing stays charged" not in structured["error"]
        # The reconciliation, once the call's deadline has passed, gives them back (and leaves the store clean).
        ledger = DynamoLedger(_store(local_server), ACCOUNTS, LEDGER, CALLS)
        report = CallBilling(ledger, clock=lambda: time.time() + SYNC_DEADLINE_PASSED_S).sweep().to_wire()
        assert [(r["account_id"], r["amount"]) for r in report["reversed"]] == [(account_id, held)]
        assert ledger.balance(account_id) == 10 and ledger.audit(account_id).consistent
    else:
        assert "nothing stays charged" in structured["error"]
