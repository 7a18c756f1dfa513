"""supplement through the official mcp client: DSLD/ODS_BASE_URL point at recordings on loopback."""

from __future__ import annotations

from typing import Any

import pytest
from mcp import Client

from tests.e2e.tool_calls import Tools

pytestmark = pytest.mark.e2e


@pytest.mark.anyio
async def test_supplement_tools_end_to_end(local_server: Any, recorded_apis_server: Any) -> None:
    async with Client(local_server.url_with_key) as client:
        tools = await Tools.listed(client)
        search = await tools.charged("supplement_search", {"query": "melatonin"}, 1)
        assert search["results"][0]["dsld_id"] == 332395
        label = await tools.charged("supplement_label", {"dsld_id": 332395}, 1)
        assert label["product"] == "Melatonin 2 mg"
        sheet = await tools.charged("supplement_ingredient", {"name": "vitamin D"}, 1)
        assert sheet["rda"]["columns"][0] == "Age"
        missing = await tools.refused("supplement_label", {"dsld_id": 999999999}, "not_found")
        assert "999999999" in missing["error"]
        await tools.refused("supplement_label", {"dsld_id": 0}, "invalid_arguments")
        await tools.free("supplement_status", {})
