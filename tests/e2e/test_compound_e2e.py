"""compound through the official mcp client: the local default's PUBCHEM_BASE_URL points at recordings on loopback."""

from __future__ import annotations

from typing import Any

import pytest
from mcp import Client

from tests.e2e.tool_calls import Tools

pytestmark = pytest.mark.e2e


@pytest.mark.anyio
async def test_compound_tools_end_to_end(local_server: Any, recorded_apis_server: Any) -> None:
    async with Client(local_server.url_with_key) as client:
        tools = await Tools.listed(client)
        assert {"compound_search", "compound_properties", "compound_safety", "compound_status"} <= set(
            tools.output_schemas
        )
        search = await tools.charged("compound_search", {"query": "aspirin"}, 1)
        assert search["results"][0] == {"cid": 2244, "title": "Aspirin", "formula": "C9H8O4"}
        properties = await tools.charged("compound_properties", {"cid": 2244}, 1)
        assert properties["inchikey"] == "BSYNRYMUTXBXSQ-UHFFFAOYSA-N"
        safety = await tools.charged("compound_safety", {"cid": 8471}, 1)
        assert safety["title"] == "Triethylamine" and safety["signal_word"] == "Danger"
        before = recorded_apis_server.hits["pubchem"]
        again = await tools.charged("compound_safety", {"cid": 8471}, 1)
        assert again["source"]["cached"] is True and recorded_apis_server.hits["pubchem"] == before
        missing = await tools.refused("compound_properties", {"name": "xyzzy"}, "not_found")
        assert missing["error"] == "PubChem has no compound named 'xyzzy'"
        await tools.refused("compound_safety", {"cid": 1, "name": "x"}, "invalid_arguments")
        status = await tools.free("compound_status", {})
        assert status["backends"][0]["base_url"] == recorded_apis_server.base_url("pubchem")
