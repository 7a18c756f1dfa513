"""Issue 34, as a client sees it through the official mcp client: what a usage read costs."""

from __future__ import annotations

import uuid

import httpx
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

pytestmark = pytest.mark.e2e
USAGE_READ_UNITS = 10


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
