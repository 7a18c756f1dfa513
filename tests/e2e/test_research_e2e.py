"""research through the official `mcp` client against the local server (golden mode: no provider keys)."""

from __future__ import annotations

from typing import Any

import anyio
import jsonschema
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from mcp_platform.contracts.research import seed

pytestmark = pytest.mark.e2e

WEBB = "When did the James Webb Space Telescope launch?"


def _seed_check(definition: str, structured: dict[str, Any]) -> None:
    schema = {"$ref": f"#/definitions/{definition}", "definitions": seed()["definitions"]}
    jsonschema.Draft202012Validator(schema).validate(structured)


def _session(local_server: Any) -> Client:
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {local_server.api_key}"})
    return Client(streamable_http_client(local_server.url, http_client=http))


def test_research_tools_end_to_end(local_server: Any) -> None:
    async def scenario() -> None:
        async with _session(local_server) as client:
            names: set[str] = set()
            cursor = None
            while True:  # tools/list is paged: more services push research onto a later page
                page = await client.list_tools(cursor=cursor)
                names |= {tool.name for tool in page.tools}
                if (cursor := page.next_cursor) is None:
                    break
            assert {"research_brief", "source_lookup", "credits"} <= names
            assert "compare_options" not in names  # preview tools are off by default

            before = (await client.call_tool("credits", {})).structured_content
            _seed_check("creditsResponse", before)
            assert isinstance(before["balance_cents"], int)

            brief = await client.call_tool("research_brief", {"query": WEBB, "depth": "quick"})
            assert not brief.is_error
            _seed_check("researchBriefOutput", brief.structured_content)
            assert brief.structured_content["meta"] == {"mode": "golden", "billable": False}
            assert brief.structured_content["claims"]

            lookup = await client.call_tool(
                "source_lookup",
                {"claim_or_url": "https://science.nasa.gov/mission/webb/", "ask": "When did Webb launch?"},
            )
            _seed_check("sourceLookupOutput", lookup.structured_content)
            assert lookup.structured_content["verdict"] == "found"

            deep = await client.call_tool("research_brief", {"query": WEBB, "depth": "deep"})
            assert deep.is_error and deep.structured_content["code"] == "preview_required"
            _seed_check("toolError", deep.structured_content)

            after = (await client.call_tool("credits", {})).structured_content
            assert after["balance_cents"] == before["balance_cents"]  # golden and refused calls cost nothing

    anyio.run(scenario)
