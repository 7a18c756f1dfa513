"""The money path through the official mcp client: SDK-style retries, per-call balances, the error registry."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from tests.e2e.tool_calls import balance
from tests.support.local_store import reconcile

pytestmark = pytest.mark.e2e
ARGS = {"email": "ada@example.com"}


def _client(server, mode: str = "auto", **headers: str) -> Client:
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {server.api_key}", **headers})
    return Client(streamable_http_client(server.url, http_client=http), mode=mode)


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_five_sdk_retries_with_one_idempotency_key_are_charged_once(local_server, mode: str) -> None:
    """Each call_tool is a new JSON-RPC id, as when an SDK re-sends a call after a timeout."""
    async with _client(local_server, mode, **{"Idempotency-Key": f"retry-{uuid.uuid4()}"}) as client:
        before = await balance(client)
        results = [await client.call_tool("validate_email", ARGS) for _ in range(5)]
        after = await balance(client)
    first = results[0].structured_content
    assert first["credits_charged"] == 1 and first["credits_balance"] == before - 1
    assert all(r.structured_content == first for r in results)
    assert after == before - 1


@pytest.mark.anyio
async def test_the_same_key_for_other_arguments_is_an_idempotency_conflict(local_server) -> None:
    async with _client(local_server, **{"Idempotency-Key": f"conflict-{uuid.uuid4()}"}) as client:
        await client.call_tool("validate_email", ARGS)
        before = await balance(client)
        conflict = await client.call_tool("validate_email", {**ARGS, "email": "bob@example.com"})
        assert conflict.is_error is True
        assert conflict.structured_content["code"] == "idempotency_conflict"
        assert await balance(client) == before


@pytest.mark.anyio
async def test_concurrent_billed_calls_each_report_their_own_balance(local_server) -> None:
    async with _client(local_server) as client:
        results = await asyncio.gather(*(client.call_tool("validate_email", ARGS) for _ in range(12)))
        after = await balance(client)
    balances = sorted(r.structured_content["credits_balance"] for r in results)
    assert len(set(balances)) == 12, balances  # distinct: each is the balance right after its own charge
    assert balances[0] == after  # the last charge leaves what the account now holds


@pytest.mark.anyio
async def test_the_error_registry_is_readable(local_server) -> None:
    async with _client(local_server) as client:
        text = (await client.read_resource("docs://errors")).contents[0].text
    assert "| `call_in_progress` | yes |" in text and "| `idempotency_conflict` | no |" in text


def test_admin_cli_reconcile_runs_against_the_local_store(local_server) -> None:
    report = reconcile(local_server.aws_endpoint, "--audit", "acct_dev")
    assert report["credits_returned"] == 0  # nothing is past its deadline on a healthy server
    assert report["failures"] == 0  # the sweep read every shard and the stranded index without a record failing
    assert report["audit"]["consistent"] is True
