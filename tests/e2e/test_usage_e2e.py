"""Usage export through the official client: a fresh account's ledger and daily totals as resources."""

from __future__ import annotations

import json
import uuid

import httpx
import pytest
from mcp import Client

pytestmark = pytest.mark.e2e


@pytest.mark.anyio
async def test_a_billed_call_appears_in_the_ledger_and_the_usage_totals(local_server) -> None:
    email = f"usage-{uuid.uuid4().hex[:8]}@example.org"  # an account of its own: no other test's entries
    created = httpx.post(
        f"{local_server.base}/api/auth/register", json={"email": email, "account_type": "agent"}, timeout=10
    ).json()
    url = local_server.url.replace("http://", f"http://agent:{created['api_key']}@")
    async with Client(url) as client:
        result = await client.call_tool("validate_iban", {"iban": "DE89 3704 0044 0532 0130 00"})
        assert result.is_error is False and result.structured_content["credits_charged"] == 1
        templates = await client.list_resource_templates()
        assert "credits://ledger{?since,limit,cursor}" in {t.uri_template for t in templates.resource_templates}

        page = json.loads((await client.read_resource("credits://ledger?limit=1")).contents[0].text)
        charge = page["entries"][0]
        assert (charge["kind"], charge["tool"], charge["service"], charge["amount"]) == (
            "charge",
            "validate_iban",
            "validate",
            -1,
        )
        assert charge["balance_after"] == page["balance"] == created["balance"] - 1
        older = json.loads((await client.read_resource(page["next_uri"])).contents[0].text)
        assert [(e["kind"], e["amount"]) for e in older["entries"]] == [("grant", created["balance"])]
        assert "next_uri" not in older

        usage = json.loads((await client.read_resource("credits://usage")).contents[0].text)
        row = next(r for r in usage["totals_by_day"] if r["service"] == "validate")
        assert (row["calls"], row["charged"], row["net"]) == (1, 1, 1)
