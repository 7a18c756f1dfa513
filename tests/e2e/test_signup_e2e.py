"""Self-service sign-up on the local default (`make dev` runs it open), then the official client with the new key."""

from __future__ import annotations

import uuid

import httpx
import pytest
from mcp import Client

pytestmark = pytest.mark.e2e


@pytest.mark.anyio
async def test_an_agent_finds_sign_up_registers_and_calls_a_tool(local_server) -> None:
    known = httpx.get(f"{local_server.base}/.well-known/mcp", timeout=10).json()
    assert known["registration"]["mode"] == "open"
    email = f"agent-{uuid.uuid4().hex[:8]}@example.org"
    response = httpx.post(known["registration"]["endpoint"], json={"email": email, "account_type": "agent"}, timeout=10)
    assert response.status_code == 201, response.text
    created = response.json()
    again = httpx.post(known["registration"]["endpoint"], json={"email": email, "account_type": "agent"}, timeout=10)
    assert again.status_code == 409 and again.json()["error"]["data"]["reason"] == "email_taken"

    url = local_server.url.replace("http://", f"http://agent:{created['api_key']}@")
    async with Client(url) as client:
        result = await client.call_tool("hello_ping", {"name": "new agent"})
        assert result.structured_content["message"] == "hello, new agent"
        balance = await client.read_resource("credits://balance")
        assert f'"balance":{created["balance"]}' in balance.contents[0].text
