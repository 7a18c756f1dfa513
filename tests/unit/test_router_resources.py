"""resources/list, resources/templates/list, resources/read, and the plain GET endpoints."""

from __future__ import annotations

import orjson
import pytest

from mcp_platform.protocol.jsonrpc import INVALID_PARAMS, RESOURCE_NOT_FOUND
from mcp_platform.protocol.mcp import LEGACY_VERSIONS, MODERN_VERSIONS
from mcp_router.settings import RouterSettings
from tests.support import router as support
from tests.support.router import Platform, assert_rpc_error, body, message, platform

URL = "https://api.example.test"


@pytest.fixture
def plat() -> Platform:
    registry = support.fake_registry(
        support.fake_spec("fake_paid", price=3), support.fake_spec("zeta_one", service="zeta")
    )
    settings = RouterSettings(public_url=URL, server_name="srv", server_version="1.2.3")
    return platform(registry, support.ScriptedInvoker(), settings, services={"fake", "hello"}, credits=10)


def _read(plat: Platform, uri: str) -> dict:
    result = plat.rpc("resources/read", {"uri": uri})
    [contents] = result["contents"]
    assert contents["uri"] == uri
    return contents


def test_resources_list_has_catalog_balance_and_one_payload_per_approved_service(plat: Platform) -> None:
    result = plat.rpc("resources/list")
    uris = [r["uri"] for r in result["resources"]]
    assert uris == [
        "docs://catalog",
        "docs://errors",
        "credits://balance",
        "credits://ledger",
        "credits://usage",
        "docs://fake/payload",
        "docs://hello/payload",
    ]
    for resource in result["resources"]:
        assert resource["name"] and resource["title"] and resource["mimeType"]
    assert "nextCursor" not in result


def test_resources_list_paginates() -> None:
    plat = platform(settings=RouterSettings(tools_page_size=1), services={"hello"})
    first = plat.rpc("resources/list")
    assert [r["uri"] for r in first["resources"]] == ["docs://catalog"]
    pages = [first]
    while "nextCursor" in pages[-1]:
        pages.append(plat.rpc("resources/list", {"cursor": pages[-1]["nextCursor"]}))
    assert [r["uri"] for page in pages[1:] for r in page["resources"]] == [
        "docs://errors",
        "credits://balance",
        "credits://ledger",
        "credits://usage",
        "docs://hello/payload",
    ]
    assert all(len(page["resources"]) == 1 for page in pages)


def test_resource_templates_list(plat: Platform) -> None:
    template, *credit_templates = plat.rpc("resources/templates/list")["resourceTemplates"]
    assert template["uriTemplate"] == "docs://{service}/payload"
    assert [t["uriTemplate"] for t in credit_templates] == [
        "credits://ledger{?since,limit,cursor}",
        "credits://usage{?since}",
    ]
    assert template["mimeType"] == "text/markdown"


def test_read_catalog_lists_approved_tools_with_prices(plat: Platform) -> None:
    contents = _read(plat, "docs://catalog")
    assert contents["mimeType"] == "text/markdown"
    text = contents["text"]
    assert "| fake | `fake_paid` | 3 |" in text
    assert "| hello | `hello_ping` | free |" in text
    assert "zeta_one" not in text


def test_read_service_payload(plat: Platform) -> None:
    contents = _read(plat, "docs://hello/payload")
    assert contents["mimeType"] == "text/markdown"
    text = contents["text"]
    assert text.startswith("# hello: canonical payload contracts")
    assert f"POST `{URL}/mcp`" in text
    for section in (
        "## `hello_ping`",
        "**Request contract**",
        "**Input schema**",
        "**Output schema**",
        "**Error object**",
    ):
        assert section in text


@pytest.mark.parametrize(
    "uri",
    ["docs://zeta/payload", "docs://nope/payload", "docs://hello", "docs://hello/payload/x", "file:///etc/passwd"],
)
def test_reading_an_unapproved_or_unknown_resource_is_not_found(plat: Platform, uri: str) -> None:
    assert_rpc_error(plat.post(message("resources/read", {"uri": uri})), 200, RESOURCE_NOT_FOUND, 1)


@pytest.mark.parametrize("params", [{}, {"uri": 5}, {"uri": None}])
def test_read_without_a_string_uri_is_invalid_params(plat: Platform, params: dict) -> None:
    assert_rpc_error(plat.post(message("resources/read", params)), 200, INVALID_PARAMS, 1)


def test_read_balance_shows_the_balance_and_latest_entries_newest_first(plat: Platform) -> None:
    plat.ledger.grant(plat.account_id, 5, "bonus")
    plat.call("fake_paid", {"text": "hi"})
    contents = _read(plat, "credits://balance")
    assert contents["mimeType"] == "application/json"
    data = orjson.loads(contents["text"])
    assert data["account_id"] == plat.account_id
    assert data["balance"] == 12
    kinds = [(e["kind"], e["amount"]) for e in data["entries"]]
    assert kinds == [("charge", -3), ("grant", 5), ("grant", 10)]
    assert data["entries"][0]["tool"] == "fake_paid"
    assert data["entries"][1]["reason"] == "bonus"
    assert sum(e["amount"] for e in data["entries"]) == data["balance"]


def test_read_balance_keeps_only_the_latest_twenty_entries(plat: Platform) -> None:
    for i in range(25):
        plat.ledger.grant(plat.account_id, 1, f"g{i}")
    data = orjson.loads(_read(plat, "credits://balance")["text"])
    assert len(data["entries"]) == 20
    assert data["entries"][0]["reason"] == "g24"
    assert data["balance"] == 35


def test_health_needs_no_key_and_says_which_backends_are_active() -> None:
    settings = RouterSettings(
        server_version="1.2.3", llm_provider="openai", llm_base_url="http://10.0.0.5:11434/v1"
    )  # the router's own settings, not the process environment
    plat = platform(support.fake_registry(support.fake_spec("fake_paid", price=3)), settings=settings)
    response = plat.request(b"", method="GET", path="/health", key=None)
    assert response.status == 200
    assert body(response) == {
        "status": "ok",
        "version": "1.2.3",
        "tools": 3,  # the two tools of the test registry and tools_search
        "backends": {
            "search": {"provider": "serper", "base_url": "public default", "missing": ["SEARCH_API_KEY_PARAMETER"]},
            "llm": {"provider": "openai", "model": None, "base_url": "configured", "missing": ["LLM_MODEL"]},
            "missing": ["SEARCH_API_KEY_PARAMETER", "LLM_MODEL"],
        },
    }
    assert b"10.0.0.5" not in response.body  # an operator's internal address is not for callers


def test_llms_txt(plat: Platform) -> None:
    response = plat.request(b"", method="GET", path="/llms.txt", key=None)
    assert response.status == 200
    assert response.headers["content-type"].startswith("text/plain")
    text = response.body.decode()
    assert text.startswith("# MCP platform")
    assert f"Endpoint: {URL}/mcp" in text
    for service in ("fake", "hello", "zeta"):
        assert f"- `{service}` (" in text
        assert f"docs://{service}/payload" in text


def test_well_known_mcp(plat: Platform) -> None:
    response = plat.request(b"", method="GET", path="/.well-known/mcp", key=None)
    assert response.status == 200
    data = body(response)
    assert data["name"] == "srv" and data["version"] == "1.2.3"
    assert data["endpoint"] == f"{URL}/mcp"
    assert data["stateless"] is True
    assert set(data["protocolVersions"]) == {*LEGACY_VERSIONS, *MODERN_VERSIONS}
    assert [s["name"] for s in data["services"]] == ["fake", "hello", "zeta"]
    assert {s["name"]: s["tools"] for s in data["services"]} == {"fake": 1, "hello": 1, "zeta": 1}


@pytest.mark.parametrize("preview", [False, True])
def test_health_counts_the_tools_that_tools_list_returns(preview: bool) -> None:
    """Issue 39: /health said 117 while tools/list returned 116 (a preview tool, hidden by default)."""
    plat = platform(settings=RouterSettings(enable_preview_tools=preview))
    names: list[str] = []
    cursor = None
    while True:
        page = plat.rpc("tools/list", {"cursor": cursor} if cursor else {})
        names += [tool["name"] for tool in page["tools"]]
        if (cursor := page.get("nextCursor")) is None:
            break
    assert body(plat.request(b"", method="GET", path="/health", key=None))["tools"] == len(names)
