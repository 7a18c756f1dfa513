"""shot through the official mcp client against the local default: Debian's Chromium, a loopback site."""

from __future__ import annotations

import io

import httpx
import pytest
from mcp import Client
from PIL import Image
from tool_calls import Tools

from tests.integration.web_site import LocalSite, Reply

pytestmark = pytest.mark.e2e

PAGE = (
    b"<!doctype html><title>Blue box</title><body style='margin:0;background:#ffffff'>"
    b"<div style='width:120px;height:80px;background:#0000ff'></div><img src='http://10.2.3.4/pixel.gif'></body>"
)


@pytest.mark.anyio
async def test_capture_is_billed_and_a_private_redirect_is_free(local_server) -> None:
    with LocalSite() as site:
        site.routes["/box"] = Reply(body=PAGE)
        site.routes["/away"] = Reply(302, headers={"Location": "http://192.168.0.1/router"})
        async with Client(local_server.url_with_key) as client:
            tools = await Tools.listed(client)
            out = await tools.charged("shot_capture", {"url": site.url("/box"), "width": 800, "height": 600}, 3)
            assert (out["title"], out["width"], out["height"]) == ("Blue box", 800, 600)
            assert [entry["url"] for entry in out["blocked_requests"]] == ["http://10.2.3.4/pixel.gif"]
            image = Image.open(io.BytesIO(httpx.get(out["file"]["url"]).content)).convert("RGB")
            assert (image.getpixel((5, 5)), image.getpixel((400, 300))) == ((0, 0, 255), (255, 255, 255))

            refused = await tools.refused("shot_capture", {"url": site.url("/away")}, "url_not_allowed")
            assert "192.168.0.1" in refused["error"]
            status = await tools.free("shot_status", {})
            assert status["engine"].startswith("chromium")


OTHER_PORTS = (
    b"<!doctype html><title>Ports</title><body><img src='http://93.184.215.14:8080/pixel.gif'>"
    b"<script>try { new WebSocket('ws://93.184.215.14:9000/socket') } catch (e) {}</script></body>"
)


@pytest.mark.anyio
async def test_the_browser_keeps_to_fetchs_ports(local_server) -> None:
    """A subresource or WebSocket on another port of a public host is refused, as fetch refuses it."""
    with LocalSite() as site:
        site.routes["/ports"] = Reply(body=OTHER_PORTS)
        async with Client(local_server.url_with_key) as client:
            tools = await Tools.listed(client)
            out = await tools.charged("shot_capture", {"url": site.url("/ports"), "width": 400, "height": 300}, 3)
    blocked = {entry["url"]: entry["reason"] for entry in out["blocked_requests"]}
    assert "port 8080 is not allowed" in blocked["http://93.184.215.14:8080/pixel.gif"]
    assert any("port 9000" in reason for reason in blocked.values()), blocked
