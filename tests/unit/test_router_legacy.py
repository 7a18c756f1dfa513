"""Legacy era (no MCP-Protocol-Version, or 2025-03-26 / 2025-06-18 / 2025-11-25)."""

from __future__ import annotations

import pytest

from mcp_platform.protocol.jsonrpc import METHOD_NOT_FOUND, RESOURCE_NOT_FOUND, UNSUPPORTED_PROTOCOL_VERSION
from mcp_platform.protocol.mcp import LATEST_LEGACY, LEGACY_VERSIONS, MODERN_VERSIONS
from mcp_router.methods import INSTRUCTIONS
from mcp_router.settings import RouterSettings
from tests.support.router import Platform, assert_rpc_error, body, message, platform


@pytest.fixture(scope="module")
def plat() -> Platform:
    return platform(settings=RouterSettings(server_name="test-server", server_version="9.9.9"))


def _initialize(plat: Platform, version: str) -> dict:
    params = {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
    return plat.rpc("initialize", params)


@pytest.mark.parametrize("version", LEGACY_VERSIONS)
def test_initialize_echoes_a_requested_legacy_version(plat: Platform, version: str) -> None:
    assert _initialize(plat, version)["protocolVersion"] == version


@pytest.mark.parametrize("version", ["2024-11-05", "1999-01-01", "2026-07-28", ""])
def test_initialize_with_an_unknown_version_answers_the_latest_legacy_one(plat: Platform, version: str) -> None:
    assert _initialize(plat, version)["protocolVersion"] == LATEST_LEGACY


def test_initialize_advertises_tools_and_resources_without_list_changed_or_subscribe(plat: Platform) -> None:
    result = _initialize(plat, "2025-06-18")
    capabilities = result["capabilities"]
    assert {"tools", "resources"} <= set(capabilities)
    for capability in capabilities.values():
        assert "listChanged" not in capability
        assert "subscribe" not in capability
    assert result["serverInfo"] == {"name": "test-server", "version": "9.9.9"}
    assert result["instructions"] == INSTRUCTIONS
    assert "resultType" not in result and "_meta" not in result


def test_ping_answers_an_empty_object(plat: Platform) -> None:
    assert plat.rpc("ping") == {}
    assert plat.rpc("ping", {}) == {}


def test_unknown_method_is_200_method_not_found(plat: Platform) -> None:
    error = assert_rpc_error(plat.post(message("sampling/createMessage", rpc_id=5)), 200, METHOD_NOT_FOUND, 5)
    assert "sampling/createMessage" in error["message"]


def test_server_discover_does_not_exist_in_the_legacy_era(plat: Platform) -> None:
    assert_rpc_error(plat.post(message("server/discover")), 200, METHOD_NOT_FOUND, 1)


def test_unknown_resource_is_resource_not_found(plat: Platform) -> None:
    error = assert_rpc_error(
        plat.post(message("resources/read", {"uri": "docs://nope/payload"})), 200, RESOURCE_NOT_FOUND, 1
    )
    assert error["data"] == {"uri": "docs://nope/payload"}


def test_missing_protocol_version_header_works_as_2025_03_26(plat: Platform) -> None:
    without = plat.post(message("tools/list"))
    with_oldest = plat.post(message("tools/list"), {"mcp-protocol-version": "2025-03-26"})
    assert without.status == with_oldest.status == 200
    assert body(without) == body(with_oldest)
    assert "resultType" not in body(without)["result"]


@pytest.mark.parametrize("version", LEGACY_VERSIONS)
def test_every_legacy_header_value_is_accepted(plat: Platform, version: str) -> None:
    assert body(plat.post(message("ping"), {"mcp-protocol-version": version})) == {
        "jsonrpc": "2.0",
        "id": 1,
        "result": {},
    }


@pytest.mark.parametrize("version", ["2024-11-05", "2099-01-01", "latest"])
def test_unsupported_protocol_version_header_is_400_with_supported_and_requested(plat: Platform, version: str) -> None:
    error = assert_rpc_error(
        plat.post(message("ping", rpc_id=3), {"mcp-protocol-version": version}), 400, UNSUPPORTED_PROTOCOL_VERSION, 3
    )
    assert error["data"]["requested"] == version
    assert set(error["data"]["supported"]) == {*LEGACY_VERSIONS, *MODERN_VERSIONS}


def test_prompts_list_is_empty(plat: Platform) -> None:
    assert plat.rpc("prompts/list") == {"prompts": []}
