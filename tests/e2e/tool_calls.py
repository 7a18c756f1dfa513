"""Calling tools through the official mcp client and checking what the platform promises.

`Tools(client)` reads every tool's published outputSchema from tools/list (all pages), then:
`ok` validates a non-error result against it, `charged` also checks the charge against the
price and the balance (credits://balance) before and after, `free` checks that nothing was
charged, `refused` checks an error result's code and that it cost nothing.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import jsonschema

if TYPE_CHECKING:
    from mcp import Client


async def balance(client: Client) -> int:
    """The caller's balance as the `credits://balance` resource reports it."""
    return json.loads((await client.read_resource("credits://balance")).contents[0].text)["balance"]


class Tools:
    """Tool calls with their published output schemas; build it with `await Tools.listed(client)`."""

    def __init__(self, client: Client, output_schemas: dict[str, dict[str, Any]]) -> None:
        self.client = client
        self.output_schemas = output_schemas

    @classmethod
    async def listed(cls, client: Client) -> Tools:
        schemas: dict[str, dict[str, Any]] = {}
        cursor = None
        while True:
            page = await client.list_tools(cursor=cursor)
            schemas.update({tool.name: tool.output_schema for tool in page.tools if tool.output_schema})
            cursor = page.next_cursor
            if cursor is None:
                return cls(client, schemas)

    async def ok(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """Call `tool`; assert a non-error result that its published outputSchema accepts."""
        result = await self.client.call_tool(tool, arguments)
        structured = result.structured_content
        assert result.is_error is False, structured
        assert structured is not None and structured.get("is_error") is not True, structured
        jsonschema.Draft202012Validator(self.output_schemas[tool]).validate(structured)
        return structured

    async def charged(self, tool: str, arguments: dict[str, Any], price: int) -> dict[str, Any]:
        """`ok`, charged exactly `price`: in the result and in the balance."""
        before = await balance(self.client)
        structured = await self.ok(tool, arguments)
        after = await balance(self.client)
        assert structured["credits_charged"] == price, structured
        assert (before - after, structured["credits_balance"]) == (price, after)
        return structured

    async def free(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """`ok`, and the balance is unchanged."""
        before = await balance(self.client)
        structured = await self.ok(tool, arguments)
        assert structured.get("credits_charged", 0) == 0, structured
        assert await balance(self.client) == before
        return structured

    async def refused(self, tool: str, arguments: dict[str, Any], code: str) -> dict[str, Any]:
        """An error result with `code` that cost nothing (credits_charged 0, balance unchanged)."""
        before = await balance(self.client)
        result = await self.client.call_tool(tool, arguments)
        structured = result.structured_content
        assert result.is_error is True, structured
        assert structured is not None and structured["code"] == code, structured
        assert structured.get("credits_charged", 0) == 0, structured
        assert await balance(self.client) == before
        return structured
