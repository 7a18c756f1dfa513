"""The official mcp client (2.x) against the running local default, in both eras."""

from __future__ import annotations

import json

import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from tests.support.local_store import fresh_account, local_admin

pytestmark = pytest.mark.e2e


def _with_bearer(server, mode: str = "auto", key: str | None = None) -> Client:
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {key or server.api_key}"})
    return Client(streamable_http_client(server.url, http_client=http), mode=mode)


@pytest.mark.anyio
async def test_default_client_with_the_key_in_the_url_speaks_the_modern_era(local_server) -> None:
    async with Client(local_server.url_with_key) as client:
        assert client.session.discover_result is not None, "the client should have adopted server/discover"
        tools = await client.list_tools()
        names = [t.name for t in tools.tools]
        assert "hello_ping" in names
        result = await client.call_tool("hello_ping", {"name": "Ada"})
        assert result.is_error is False
        assert result.structured_content["message"] == "hello, Ada"
        assert json.loads(result.content[0].text) == result.structured_content


@pytest.mark.anyio
async def test_legacy_streamable_http_client(local_server) -> None:
    async with _with_bearer(local_server, mode="legacy") as client:
        assert client.session.initialize_result is not None
        assert client.session.initialize_result.server_info.name == "mcp-platform"
        await client.send_ping()
        tools = await client.list_tools()
        assert any(t.name == "hello_ping" for t in tools.tools)
        result = await client.call_tool("hello_ping", {})
        assert result.structured_content["message"] == "hello, world"


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_bad_arguments_are_an_error_result_naming_the_field(local_server, mode: str) -> None:
    async with _with_bearer(local_server, mode=mode) as client:
        result = await client.call_tool("hello_ping", {"name": "x" * 500})
        assert result.is_error is True
        assert result.structured_content["code"] == "invalid_arguments"
        assert "name" in result.structured_content["error"]


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_resources_and_docs(local_server, mode: str) -> None:
    async with _with_bearer(local_server, mode=mode) as client:
        listed = await client.list_resources()
        uris = {str(r.uri) for r in listed.resources}
        assert {"docs://catalog", "credits://balance", "docs://hello/payload"} <= uris
        catalog = await client.read_resource("docs://catalog")
        assert "hello_ping" in catalog.contents[0].text
        payload = await client.read_resource("docs://hello/payload")
        assert "## `hello_ping`" in payload.contents[0].text
        templates = await client.list_resource_templates()
        assert templates.resource_templates[0].uri_template == "docs://{service}/payload"


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_balance_of_an_account_of_its_own(local_server, mode: str) -> None:
    """A fresh account: what earlier tests charged to the shared dev account cannot matter."""
    account_id, key = fresh_account(local_server.aws_endpoint, frozenset({"hello"}), 37)
    async with _with_bearer(local_server, mode=mode, key=key) as client:
        await client.call_tool("hello_ping", {})  # free: no ledger entry
        balance = json.loads((await client.read_resource("credits://balance")).contents[0].text)
    assert balance["balance"] == 37
    assert [(e["kind"], e["amount"]) for e in balance["entries"]] == [("grant", 37)]
    assert local_admin(local_server.aws_endpoint).show(account_id)["balance"] == 37
