"""plant through the official mcp client against the local default, GBIF_BASE_URL and POWO_BASE_URL
pointed at the loopback recordings server (tests/fixtures/plant)."""

from __future__ import annotations

from typing import Any

import pytest
from mcp import Client

from tests.e2e.tool_calls import Tools

pytestmark = pytest.mark.e2e


@pytest.mark.anyio
async def test_plant_tools_through_the_router(local_server: Any, recorded_apis_server: Any) -> None:
    async with Client(local_server.url_with_key) as client:
        tools = await Tools.listed(client)
        assert sorted(t for t in tools.output_schemas if t.startswith("plant_")) == [
            "plant_distribution", "plant_get", "plant_search", "plant_status"]  # fmt: skip
        status = await tools.free("plant_status", {})
        assert status["backends"][0]["base_url"] == recorded_apis_server.base_url("gbif")
        found = await tools.charged("plant_search", {"name": "Helianthus annuus"}, 1)
        assert found["results"][0]["usage_key"] == 9206251
        none = await tools.charged("plant_search", {"name": "Aso"}, 1)
        assert none["results"] == [] and none["count"] == 0
        taxon = await tools.charged("plant_get", {"key": 5231190}, 1)
        assert taxon["canonical_name"] == "Passer domesticus" and taxon["synonyms"]
        where = await tools.charged("plant_distribution", {"key": 2704179}, 1)
        assert where["distribution_source"] == "powo" and where["ipni_id"] == "320035-2" and where["native"]
        missing = await tools.refused("plant_get", {"key": 999999999}, "not_found")
        assert "999999999" in missing["error"]
        await tools.refused("plant_get", {"key": 0}, "invalid_arguments")
