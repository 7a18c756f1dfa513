"""The official mcp client on a connection's profile: ?profile=discover, and validation of every tool."""

from __future__ import annotations

import logging

import pytest
from mcp import Client

from tests.e2e.tool_calls import balance

pytestmark = pytest.mark.e2e

UNLISTED = "not listed by server"


def _sdk_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING and UNLISTED in r.getMessage()]


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_the_sdk_validates_every_tool_without_paging(local_server, caplog, mode: str) -> None:
    """Issue 39: the SDK validates a result against the tools its one `tools/list` read; all must be there."""
    caplog.set_level(logging.WARNING)
    async with Client(local_server.url_with_key, mode=mode) as client:
        # The catalogue's last tools: beyond the first page when pages were 50 tools.
        for tool in ("img_status", "validate_status", "whisper_status"):
            result = await client.call_tool(tool, {})
            assert result.is_error is False, result.structured_content
    assert _sdk_warnings(caplog) == []


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_an_agent_on_the_discover_profile_finds_and_calls_a_tool_billed_as_direct(
    local_server, caplog, mode: str
) -> None:
    caplog.set_level(logging.WARNING)
    async with Client(f"{local_server.url_with_key}?profile=discover", mode=mode) as client:
        listed = await client.list_tools()
        assert [tool.name for tool in listed.tools] == ["tools_search", "tools_call"]
        found = await client.call_tool("tools_search", {"query": "is this phone number valid?", "limit": 3})
        names = [hit["name"] for hit in found.structured_content["results"]]
        assert "validate_phone" in names
        before = await balance(client)
        called = await client.call_tool(
            "tools_call", {"name": "validate_phone", "arguments": {"number": "+44 20 7946 0958"}}
        )
        assert called.is_error is False, called.structured_content
        assert called.structured_content["credits_charged"] == 1
        assert await balance(client) == before - 1 == called.structured_content["credits_balance"]
    assert _sdk_warnings(caplog) == []
