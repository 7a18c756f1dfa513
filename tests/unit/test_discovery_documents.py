"""Being found: the Server Card, the MCP Catalog, server.json and the service icons."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import orjson

from mcp_platform.catalogue.discovery import CARD_MEDIA_TYPE, CARD_SCHEMA, PROFILES
from mcp_router.settings import RouterSettings
from tests.support.router import body, message, platform, with_meta

ROOT = Path(__file__).resolve().parents[2]
BASE = "https://api.example.com"
NAME = re.compile(r"^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$")


def _get(plat, path: str, headers: dict[str, str] | None = None):
    return plat.request(b"", headers, method="GET", path=path, key=None)


def test_the_server_card_is_where_the_extension_reserves_it_and_agrees_with_the_live_server() -> None:
    plat = platform(settings=RouterSettings(public_url=BASE, server_version="1.2.3"))
    response = _get(plat, "/mcp/server-card", {"accept": CARD_MEDIA_TYPE})
    assert response.status == 200
    assert response.headers["content-type"] == CARD_MEDIA_TYPE
    assert response.headers["access-control-allow-origin"] == "*"
    assert "max-age" in response.headers["cache-control"]
    card = orjson.loads(response.body)
    assert card["$schema"] == CARD_SCHEMA
    assert NAME.match(card["name"]) and card["name"] == "com.example.api/mcp-platform"
    assert 1 <= len(card["description"]) <= 100
    [remote] = card["remotes"]
    assert remote["type"] == "streamable-http"
    # Consistent with /.well-known/mcp and with what a connected client sees.
    well_known = body(_get(plat, "/.well-known/mcp"))
    assert well_known["serverCard"] == f"{BASE}/mcp/server-card"
    assert (card["version"], remote["url"]) == (well_known["version"], well_known["endpoint"])
    assert remote["supportedProtocolVersions"] == well_known["protocolVersions"]
    discovered = plat.post(
        message("server/discover", with_meta({})),
        {"mcp-protocol-version": "2026-07-28", "mcp-method": "server/discover"},
    )
    result = body(discovered)["result"]
    assert sorted(result["supportedVersions"]) == sorted(remote["supportedProtocolVersions"])
    assert result["_meta"]["io.modelcontextprotocol/serverInfo"]["version"] == card["version"]


def test_the_catalog_points_at_the_card() -> None:
    plat = platform(settings=RouterSettings(public_url=BASE))
    response = _get(plat, "/.well-known/mcp/catalog.json")
    assert response.headers["access-control-allow-origin"] == "*"
    [entry] = orjson.loads(response.body)["entries"]
    assert entry["url"] == f"{BASE}/mcp/server-card"
    assert entry["type"] == CARD_MEDIA_TYPE


def test_every_service_has_a_small_icon_served_by_the_platform_and_named_in_tools_list() -> None:
    plat = platform(settings=RouterSettings(public_url=BASE))
    tools = plat.rpc("tools/list")["tools"]
    for tool in tools:
        [icon] = tool["icons"]
        assert icon["src"].startswith(f"{BASE}/icons/") and icon["mimeType"] == "image/svg+xml"
        response = _get(plat, icon["src"].removeprefix(BASE))
        assert response.status == 200 and response.headers["content-type"] == "image/svg+xml"
        assert len(response.body) < 512
        assert response.body.startswith(b"<svg")
    assert _get(plat, "/icons/nope.svg").status == 404
    discover = plat.rpc("tools/list", query="profile=discover")["tools"]
    assert len(orjson.dumps(discover)) <= 4096


def test_without_a_public_url_tools_carry_no_icons_and_the_card_uses_the_host() -> None:
    plat = platform()
    assert all("icons" not in tool for tool in plat.rpc("tools/list")["tools"])
    card = orjson.loads(_get(plat, "/mcp/server-card", {"host": "mcp.example.org"}).body)
    assert card["remotes"][0]["url"] == "https://mcp.example.org/mcp"


def test_server_json_is_generated_with_a_remote_per_profile() -> None:
    out = subprocess.run(
        [sys.executable, "scripts/server_json.py", BASE, "--version", "2.0.0"],
        cwd=ROOT,
        capture_output=True,
        check=True,
        text=True,
    )
    document = orjson.loads(out.stdout)
    assert NAME.match(document["name"]) and document["version"] == "2.0.0"
    assert [r["url"] for r in document["remotes"]] == [f"{BASE}/mcp{suffix}" for suffix in PROFILES]
    assert all(r["type"] == "streamable-http" for r in document["remotes"])
    profiles = document["_meta"]["io.modelcontextprotocol.registry/publisher-provided"]["profiles"]
    assert len(profiles) == len(PROFILES)
