"""staging, img and pdf through the official mcp client against the local default; staged files over HTTP."""

from __future__ import annotations

import base64
import io

import httpx
import pytest
from mcp import Client
from PIL import Image
from pypdf import PdfReader

pytestmark = pytest.mark.e2e


def _png() -> str:
    buffer = io.BytesIO()
    Image.new("RGB", (40, 20), "green").save(buffer, "PNG")
    return base64.b64encode(buffer.getvalue()).decode()


@pytest.mark.anyio
async def test_upload_transform_and_typeset_then_download(local_server) -> None:
    async with Client(local_server.url_with_key) as client:
        uploaded = await client.call_tool("staging_upload", {"content_base64": _png(), "filename": "g.png"})
        assert uploaded.is_error is False, uploaded.structured_content
        staged = uploaded.structured_content

        resized = await client.call_tool("img_transform", {"image": staged["id"], "resize": {"width": 10}})
        assert resized.is_error is False, resized.structured_content
        assert any(block.type == "image" for block in resized.content)
        image = Image.open(io.BytesIO(httpx.get(resized.structured_content["file"]["url"]).content))
        assert image.size == (10, 5)

        made = await client.call_tool("pdf_from_markdown", {"markdown": "# Árvíztűrő tükörfúrógép"})
        assert made.is_error is False, made.structured_content
        pdf = httpx.get(made.structured_content["file"]["url"])
        assert pdf.status_code == 200
        assert "Árvíztűrő" in PdfReader(io.BytesIO(pdf.content)).pages[0].extract_text()
