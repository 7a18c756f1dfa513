"""shot_*: Debian's Chromium through Playwright, pages from a loopback site, staging in moto.

The browser reaches the network only through the guard proxy, so every SSRF case here is a
request the page made by itself: a redirect hop, a subresource, a fetch, a name resolving to a
private address. The loopback test switch lets the site itself be reached.
"""

from __future__ import annotations

import io
import socket
import time
from typing import TYPE_CHECKING, Any

import pytest
from PIL import Image
from web_site import LocalSite, Reply, site  # noqa: F401 - fixture

from mcp_platform.runtime.service import ServiceContext
from shot_service.app import app
from staging_support import service_store, staging_bucket  # noqa: F401 - fixture

if TYPE_CHECKING:
    from collections.abc import Callable

ACCOUNT = "acct_shot"
RED_AND_BLUE = (
    b"<!doctype html><html><head><title>Colours</title></head>"
    b'<body style="margin:0;background:#ff0000"><div style="width:200px;height:100px;background:#0000ff"></div>'
)
TALL = b'<!doctype html><body style="margin:0"><div style="height:3000px;background:#00ff00"></div></body>'
DARK_AWARE = (
    b"<!doctype html><style>body{margin:0;background:#ffffff}"
    b"@media (prefers-color-scheme: dark){body{background:#000000}}</style><body><p>x</p></body>"
)


@pytest.fixture(autouse=True)
def _chromium(staging_bucket: str, monkeypatch: pytest.MonkeyPatch, reload_settings: Callable[[], None]) -> None:
    monkeypatch.setenv("SHOT_BROWSER_PATH", "/usr/bin/chromium")
    reload_settings()


def call(tool: str, seconds: float = 25.0, **arguments: Any) -> Any:
    ctx = ServiceContext(
        account_id=ACCOUNT, request_id="r1", deadline_epoch=time.time() + seconds, staging_bucket=app.staging_bucket
    )
    payload = {"tool": tool, "arguments": arguments, "account_id": ACCOUNT, "request_id": "r1"}
    return app.handle(payload, ctx)


def captured(reply: Any, validate_output) -> tuple[dict[str, Any], Image.Image]:
    out = validate_output("shot_capture", reply.structured_content)
    _, data = service_store().read(ACCOUNT, out["file"]["id"], 50_000_000)
    assert len(data) == out["bytes"] == out["file"]["size"]
    (thumbnail,) = reply.content
    assert (thumbnail["type"], thumbnail["mimeType"]) == ("image", "image/jpeg")
    return out, Image.open(io.BytesIO(data)).convert("RGB")


def error(reply: Any, code: str) -> str:
    out = reply.structured_content
    assert (out.get("is_error"), out.get("code")) == (True, code), out
    return out["error"]


def test_known_colours_at_known_pixels(site: LocalSite, validate_output) -> None:
    site.routes["/colours"] = Reply(body=RED_AND_BLUE)
    out, image = captured(call("shot_capture", url=site.url("/colours"), width=640, height=480), validate_output)
    assert (out["width"], out["height"], out["format"], out["status"]) == (640, 480, "png", 200)
    assert (out["title"], out["final_url"], out["truncated"]) == ("Colours", site.url("/colours"), False)
    assert image.getpixel((10, 10)) == (0, 0, 255)
    assert image.getpixel((400, 300)) == (255, 0, 0)
    assert out["blocked_requests"] == []


def test_full_page_height_and_jpeg(site: LocalSite, validate_output) -> None:
    site.routes["/tall"] = Reply(body=TALL)
    out, image = captured(call("shot_capture", url=site.url("/tall"), width=400, full_page=True), validate_output)
    assert (out["width"], out["height"]) == (400, 3000)
    assert image.getpixel((200, 2900)) == (0, 255, 0)
    jpeg, picture = captured(
        call("shot_capture", url=site.url("/tall"), width=400, format="jpeg", quality=60), validate_output
    )
    assert (jpeg["format"], jpeg["height"], jpeg["file"]["media_type"]) == ("jpeg", 800, "image/jpeg")
    green = picture.getpixel((200, 400))
    assert green[1] > 240 and green[0] < 20 and green[2] < 20


def test_dark_mode_and_device_preset(site: LocalSite, validate_output) -> None:
    site.routes["/dark"] = Reply(body=DARK_AWARE)
    _, light = captured(call("shot_capture", url=site.url("/dark")), validate_output)
    _, dark = captured(call("shot_capture", url=site.url("/dark"), dark_mode=True), validate_output)
    assert (light.getpixel((600, 600)), dark.getpixel((600, 600))) == ((255, 255, 255), (0, 0, 0))
    phone, _ = captured(call("shot_capture", url=site.url("/dark"), device="iphone-15"), validate_output)
    assert (phone["width"], phone["height"]) == (393 * 3, 659 * 3)  # iPhone 15: 393x659 CSS px at 3x


def test_redirect_to_a_private_address_is_refused(site: LocalSite) -> None:
    site.routes["/to-private"] = Reply(302, headers={"Location": "http://10.1.2.3/admin"})
    site.routes["/to-metadata"] = Reply(302, headers={"Location": "http://169.254.169.254/latest/meta-data/"})
    assert "10.1.2.3" in error(call("shot_capture", url=site.url("/to-private")), "url_not_allowed")
    assert "metadata" in error(call("shot_capture", url=site.url("/to-metadata")), "url_not_allowed")


def test_private_subresources_are_blocked_and_the_page_still_renders(site: LocalSite, validate_output) -> None:
    site.routes["/mixed"] = Reply(
        body=RED_AND_BLUE
        + b'<img src="http://10.9.9.9/x.png"><iframe src="http://[::1]:9/"></iframe>'
        + b"<script>fetch('http://169.254.169.254/latest/meta-data/').catch(()=>{});"
        + b"new WebSocket('ws://192.168.1.1/socket');</script>"
    )
    out, image = captured(call("shot_capture", url=site.url("/mixed"), wait_ms=300), validate_output)
    assert image.getpixel((10, 10)) == (0, 0, 255)
    blocked = {entry["url"]: entry["reason"] for entry in out["blocked_requests"]}
    assert "private address" in blocked["http://10.9.9.9/x.png"]
    assert "metadata" in blocked["http://169.254.169.254/latest/meta-data/"]
    assert any(url.startswith("https://192.168.1.1") or "192.168.1.1" in url for url in blocked)


def test_names_resolving_to_private_addresses_are_blocked(
    site: LocalSite, monkeypatch: pytest.MonkeyPatch, validate_output
) -> None:
    real = socket.getaddrinfo

    def rebinding(host: str, *args: Any, **kwargs: Any) -> Any:
        if host == "intranet.example":
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.7", 80))]
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    site.routes["/named"] = Reply(body=RED_AND_BLUE + b'<img src="http://intranet.example/logo.png">')
    out, _ = captured(call("shot_capture", url=site.url("/named")), validate_output)
    (entry,) = out["blocked_requests"]
    assert entry["url"] == "http://intranet.example/logo.png" and "10.0.0.7" in entry["reason"]
    site.routes["/go-intranet"] = Reply(302, headers={"Location": "http://intranet.example/"})
    assert "10.0.0.7" in error(call("shot_capture", url=site.url("/go-intranet")), "url_not_allowed")


def test_a_page_that_never_loads_is_cut_at_the_timeout(site: LocalSite) -> None:
    site.routes["/slow"] = Reply(body=b"<html><body>" + b"x" * 20_000, delay=2.0)
    started = time.monotonic()
    message = error(call("shot_capture", seconds=8, url=site.url("/slow")), "timeout")
    assert "did not finish loading" in message
    assert time.monotonic() - started < 12


def test_wait_for_a_selector(site: LocalSite, validate_output) -> None:
    site.routes["/late"] = Reply(
        body=b"<body><script>setTimeout(()=>{const d=document.createElement('div');d.id='ready';"
        b"d.textContent='ready';document.body.appendChild(d)},400)</script></body>"
    )
    validate_output("shot_capture", call("shot_capture", url=site.url("/late"), wait_for="#ready").structured_content)
    assert "#never" in error(call("shot_capture", seconds=6, url=site.url("/late"), wait_for="#never"), "timeout")


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({"url": "file:///etc/passwd"}, "url"),
        ({"url": "http://127.0.0.1:1/"}, "url"),
        ({"url": "http://10.0.0.1/"}, "url"),
        ({"url": "https://example.com", "width": 100}, "width"),
        ({"url": "https://example.com", "wait_ms": 20_000}, "wait_ms"),
        ({"url": "https://example.com", "quality": 50}, "quality"),
        ({"url": "https://example.com", "device": "nokia-3310"}, "device"),
    ],
)
def test_bad_input_is_refused_before_any_browser_work(arguments: dict[str, Any], field: str) -> None:
    assert field in error(call("shot_capture", **arguments), "invalid_arguments")


def test_status(validate_output) -> None:
    out = validate_output("shot_status", call("shot_status").structured_content)
    assert out["ok"] is True and "iphone-15" in out["devices"]
    assert out["browser_path"] == "/usr/bin/chromium"
