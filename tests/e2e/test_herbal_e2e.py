"""herbal through the official mcp client against the local default (HERBAL_DB_PATH: the test extract's
database, which tests/conftest.py builds before the server starts)."""

from __future__ import annotations

from typing import Any

import pytest
from mcp import Client

from tests.e2e.tool_calls import Tools

pytestmark = pytest.mark.e2e


@pytest.mark.anyio
async def test_herbal_tools_through_the_router(local_server: Any) -> None:
    async with Client(local_server.url_with_key) as client:
        tools = await Tools.listed(client)
        assert sorted(t for t in tools.output_schemas if t.startswith("herbal_")) == [
            "herbal_by_activity", "herbal_constituents", "herbal_get", "herbal_interactions", "herbal_search",
            "herbal_status"]  # fmt: skip
        status = await tools.free("herbal_status", {})
        assert status["complete"] is True
        found = await tools.charged("herbal_search", {"name": "ginkgo"}, 1)
        herb = str(found["results"][0]["herb_id"])
        got = await tools.charged("herbal_get", {"herb": herb}, 1)
        assert got["herb"]["scientific_name"] == "Ginkgo biloba" and "not medical advice" in got["notice"]
        parts = await tools.charged("herbal_constituents", {"herb": herb, "part": "Leaf"}, 1)
        assert {c["chemical"] for c in parts["constituents"]} >= {"GINKGOLIDE-B", "BILOBALIDE"}
        ranked = await tools.charged("herbal_by_activity", {"activity": "Antiaggregant", "limit": 3}, 1)
        assert ranked["results"][0]["scientific_name"] == "Ginkgo biloba"
        cautions = await tools.charged("herbal_interactions", {"herb": "Ginkgo biloba"}, 1)
        assert "bleeding" in {c["caution"] for c in cautions["cautions"]}
        missing = await tools.refused("herbal_get", {"herb": "Nonexistia imaginaria"}, "not_found")
        assert "Nonexistia imaginaria" in missing["error"]
        await tools.refused("herbal_constituents", {"herb": "ginkgo", "limit": 0}, "invalid_arguments")
