"""qr through the official mcp client: generate, download the staged PNG over HTTP, decode it back."""

from __future__ import annotations

import base64

import httpx
import pytest
from mcp import Client

from qr_support import read_one

pytestmark = pytest.mark.e2e


@pytest.mark.anyio
async def test_generate_download_and_decode(local_server) -> None:
    async with Client(local_server.url_with_key) as client:
        made = await client.call_tool(
            "qr_epc", {"name": "Vöröskereszt", "iban": "DE89370400440532013000", "amount": "10", "text": "Adomány"}
        )
        assert made.is_error is False, made.structured_content
        assert made.structured_content["credits_charged"] == 1
        payload = made.structured_content["payload"]
        assert any(block.type == "image" for block in made.content)

        download = httpx.get(made.structured_content["file"]["url"])
        assert download.status_code == 200
        assert read_one(download.content, "image/png").text == payload

        decoded = await client.call_tool("qr_decode", {"image": base64.b64encode(download.content).decode()})
        assert decoded.is_error is False, decoded.structured_content
        assert [s["text"] for s in decoded.structured_content["symbols"]] == [payload]
        assert decoded.structured_content["credits_charged"] == 2

        by_id = await client.call_tool("qr_decode", {"image": made.structured_content["file"]["id"]})
        assert [s["text"] for s in by_id.structured_content["symbols"]] == [payload]

        refused = await client.call_tool("qr_barcode", {"data": "12", "symbology": "ean8"})
        assert refused.is_error is True
        assert "ean8 takes" in refused.structured_content["error"]
