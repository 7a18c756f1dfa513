"""drug through the official mcp client: RXNAV/OPENFDA/DAILYMED_BASE_URL point at recordings on loopback."""

from __future__ import annotations

from typing import Any

import pytest
from mcp import Client

from mcp_platform.contracts._data import NOT_MEDICAL_ADVICE
from tests.e2e.tool_calls import Tools

pytestmark = pytest.mark.e2e


@pytest.mark.anyio
async def test_drug_tools_end_to_end(local_server: Any, recorded_apis_server: Any) -> None:
    async with Client(local_server.url_with_key) as client:
        tools = await Tools.listed(client)
        assert {name for name in tools.output_schemas if name.startswith("drug_")} == {
            "drug_search", "drug_get", "drug_label", "drug_adverse_events", "drug_recalls", "drug_ndc", "drug_status",
        }  # fmt: skip
        search = await tools.charged("drug_search", {"name": "zocor 10 mg"}, 1)
        assert search["results"][0]["rxcui"] == "104490" and search["notice"] == NOT_MEDICAL_ADVICE
        related = await tools.charged("drug_get", {"rxcui": "866350"}, 1)
        assert related["ingredients"][0]["name"] == "Ketotifen"
        label = await tools.charged("drug_label", {"name": "zoloft", "sections": ["boxed_warning"]}, 1)
        assert label["sections"][0]["name"] == "boxed_warning" and label["dailymed_url"]
        spl = await tools.charged("drug_label", {"set_id": "00f66f25-3469-4c16-9baf-fba21e9628bd"}, 1)
        assert spl["label_source"] == "DailyMed" and spl["label"]["title"] == "Drug Facts"
        events = await tools.charged("drug_adverse_events", {"name": "lipitor"}, 1)
        assert events["reactions"][0]["reaction"] == "MYALGIA"
        recalls = await tools.charged("drug_recalls", {"name": "atorvastatin"}, 1)
        assert recalls["recalls"][0]["report_date"] == "2024-06-10"
        ndc = await tools.charged("drug_ndc", {"ndc": "00143314501"}, 1)
        assert ndc["status"] == "ACTIVE"
        await tools.refused("drug_get", {"rxcui": "999999999"}, "not_found")
        await tools.refused("drug_label", {"name": "x", "rxcui": "1"}, "invalid_arguments")
        status = await tools.free("drug_status", {})
        assert status["backends"][0]["base_url"] == recorded_apis_server.base_url("rxnav")
