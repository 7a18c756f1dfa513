"""geo through the official `mcp` client against the local default (the small importer-built database)."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from mcp import Client

pytestmark = pytest.mark.e2e

CALLS = [
    ("geo_resolve", {"query": "Budapest", "limit": 3}),
    ("geo_distance", {"from_query": "Budapest", "to_query": "Vienna"}),
    ("geo_nearby", {"center_query": "Budapest", "radius_km": 30, "limit": 5}),
    ("geo_country_capital", {"iso2": "HU"}),
    ("geo_place_kinds", {}),
    ("geo_status", {}),
]


@pytest.mark.anyio
async def test_geo_tools_through_the_router(local_server: Any) -> None:
    async with Client(local_server.url_with_key) as client:
        published = {t.name: t for t in (await client.list_tools()).tools if t.name.startswith("geo_")}
        assert len(published) == 24
        for tool, arguments in CALLS:
            result = await client.call_tool(tool, arguments)
            assert result.is_error is False, (tool, result.structured_content)
            jsonschema.Draft202012Validator(published[tool].output_schema).validate(result.structured_content)
            assert "credits_charged" not in result.structured_content  # geo is free
        distance = await client.call_tool("geo_distance", {"from_query": "Budapest", "to_query": "Vienna"})
        assert 200 < distance.structured_content["distance_km"] < 230
        missing = await client.call_tool("geo_get", {"geoname_id": 1})
        assert missing.is_error and missing.structured_content["code"] == "not_found"
