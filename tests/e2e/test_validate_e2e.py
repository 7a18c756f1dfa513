"""validate through the official mcp client against the local default: verdicts are billed, bad input is not."""

from __future__ import annotations

import json

import pytest
from mcp import Client

pytestmark = pytest.mark.e2e


async def _balance(client: Client) -> int:
    return json.loads((await client.read_resource("credits://balance")).contents[0].text)["balance"]


@pytest.mark.anyio
async def test_verdicts_cost_one_credit_and_bad_input_nothing(local_server) -> None:
    async with Client(local_server.url_with_key) as client:
        valid = await client.call_tool("validate_iban", {"iban": "DE89 3704 0044 0532 0130 00"})
        assert valid.is_error is False, valid.structured_content
        assert valid.structured_content["formatted"] == "DE89 3704 0044 0532 0130 00"
        assert valid.structured_content["credits_charged"] == 1

        invalid = await client.call_tool("validate_card", {"number": "4111 1111 1111 1112"})
        assert invalid.is_error is False, invalid.structured_content
        assert (invalid.structured_content["valid"], invalid.structured_content["credits_charged"]) == (False, 1)
        after_verdicts = invalid.structured_content["credits_balance"]

        refused = await client.call_tool("validate_phone", {"number": "1", "region": "HUN"})
        assert refused.is_error is True
        assert refused.structured_content["code"] == "invalid_arguments"
        assert "region" in refused.structured_content["error"]
        assert await _balance(client) == after_verdicts

        status = await client.call_tool("validate_status", {})
        assert status.is_error is False
        assert status.structured_content.get("credits_charged", 0) == 0
