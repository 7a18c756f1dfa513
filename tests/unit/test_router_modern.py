"""Modern era (MCP-Protocol-Version: 2026-07-28): discover, header checks, _meta, resultType, caching hints."""

from __future__ import annotations

import base64
from typing import Any

import orjson
import pytest

from mcp_platform.protocol.jsonrpc import HEADER_MISMATCH, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND
from mcp_platform.protocol.mcp import CLIENT_CAPABILITIES_META, LEGACY_VERSIONS, PROTOCOL_VERSION_META, SERVER_INFO_META
from mcp_router.headers import decode_header_value
from mcp_router.http import HttpRequest
from mcp_router.methods import INSTRUCTIONS
from mcp_router.settings import RouterSettings
from tests.support.router import (
    JSON_HEADERS,
    MODERN,
    Platform,
    assert_rpc_error,
    body,
    message,
    modern_headers,
    notification,
    platform,
    with_meta,
)

SERVER = {"name": "test-server", "version": "9.9.9"}


@pytest.fixture(scope="module")
def plat() -> Platform:
    return platform(settings=RouterSettings(server_name="test-server", server_version="9.9.9"))


def _result(response: Any) -> dict[str, Any]:
    assert response.status == 200, (response.status, response.body)
    reply = body(response)
    assert reply["id"] == 1
    result = reply["result"]
    assert result["resultType"] == "complete"
    assert result["_meta"][SERVER_INFO_META] == SERVER
    return result


def _b64(text: str) -> str:
    return f"=?base64?{base64.b64encode(text.encode()).decode()}?="


def test_server_discover(plat: Platform) -> None:
    result = _result(plat.modern("server/discover"))
    assert result["supportedVersions"][0] == MODERN
    assert set(result["supportedVersions"]) == {MODERN, *LEGACY_VERSIONS}
    assert {"tools", "resources"} <= set(result["capabilities"])
    for capability in result["capabilities"].values():
        assert "listChanged" not in capability and "subscribe" not in capability
    assert result["instructions"] == INSTRUCTIONS
    assert isinstance(result["ttlMs"], int) and result["ttlMs"] > 0
    assert result["cacheScope"] in ("public", "private")


@pytest.mark.parametrize("drop", ["mcp-method", "mcp-protocol-version-mismatch"])
def test_missing_or_mismatched_mcp_method_is_400_header_mismatch(plat: Platform, drop: str) -> None:
    headers = modern_headers("tools/list")
    if drop == "mcp-method":
        del headers["mcp-method"]
    else:
        headers["mcp-method"] = "resources/list"
    assert_rpc_error(plat.post(message("tools/list", with_meta({})), headers), 400, HEADER_MISMATCH, 1)


@pytest.mark.parametrize("name", [None, "hello_other", "HELLO_PING", ""])
def test_missing_or_mismatched_mcp_name_for_tools_call_is_400(plat: Platform, name: str | None) -> None:
    params = with_meta({"name": "hello_ping", "arguments": {}})
    response = plat.post(message("tools/call", params), modern_headers("tools/call", name))
    assert_rpc_error(response, 400, HEADER_MISMATCH, 1)


def test_mismatched_mcp_name_for_resources_read_is_400(plat: Platform) -> None:
    params = with_meta({"uri": "docs://catalog"})
    response = plat.post(message("resources/read", params), modern_headers("resources/read", "docs://hello/payload"))
    assert_rpc_error(response, 400, HEADER_MISMATCH, 1)


def test_meta_protocol_version_must_match_the_header(plat: Platform) -> None:
    params = with_meta({}, version="2025-11-25")
    assert_rpc_error(plat.post(message("tools/list", params), modern_headers("tools/list")), 400, HEADER_MISMATCH, 1)


def test_base64_header_values_are_decoded_before_comparing(plat: Platform) -> None:
    headers = {**modern_headers(_b64("tools/call"), _b64("hello_ping"))}
    response = plat.post(
        message("tools/call", with_meta({"name": "hello_ping", "arguments": {"name": "Zoë"}})), headers
    )
    result = _result(response)
    assert result["structuredContent"]["message"] == "hello, Zoë"


@pytest.mark.parametrize("bad", ["=?base64?not base64!?=", "=?base64?dG9vbHMvY2FsbA?=", "=?base64?//79?="])
def test_corrupt_base64_header_values_never_match(plat: Platform, bad: str) -> None:
    response = plat.post(message("tools/call", with_meta({"name": "hello_ping"})), modern_headers("tools/call", bad))
    assert_rpc_error(response, 400, HEADER_MISMATCH, 1)


def test_decode_header_value() -> None:
    assert decode_header_value(None) is None
    assert decode_header_value("tools/list") == "tools/list"
    assert decode_header_value(_b64("größe")) == "größe"
    assert decode_header_value("=?base64?dG9vbHMvY2FsbA?=") is None  # padding missing: non-canonical
    assert decode_header_value("=?base64?/w==?=") is None  # not UTF-8


def test_header_values_are_trimmed(plat: Platform) -> None:
    headers = {"mcp-protocol-version": f" {MODERN} ", "mcp-method": "  tools/call\t", "mcp-name": " hello_ping "}
    result = _result(plat.post(message("tools/call", with_meta({"name": "hello_ping"})), headers))
    assert result["isError"] is False


def test_duplicated_routing_header_is_400(plat: Platform) -> None:
    headers = {**JSON_HEADERS, **modern_headers("tools/list"), "authorization": f"Bearer {plat.key}"}
    headers["mcp-method"] = "tools/list, tools/list"
    request = HttpRequest(
        "POST", "/mcp", headers, orjson.dumps(message("tools/list", with_meta({}))), frozenset({"mcp-method"})
    )
    assert_rpc_error(plat.gateway.handle(request), 400, HEADER_MISMATCH, 1)


@pytest.mark.parametrize(
    "meta",
    [None, "x", {}, {PROTOCOL_VERSION_META: MODERN}, {CLIENT_CAPABILITIES_META: {}}],
    ids=["absent", "not-an-object", "empty", "no-capabilities", "no-version"],
)
def test_missing_meta_or_its_keys_is_400_invalid_params(plat: Platform, meta: Any) -> None:
    params: dict[str, Any] = {} if meta is None else {"_meta": meta}
    response = plat.post(message("tools/list", params), modern_headers("tools/list"))
    assert_rpc_error(response, 400, INVALID_PARAMS, 1)


def test_missing_params_entirely_is_400_invalid_params(plat: Platform) -> None:
    assert_rpc_error(plat.post(message("tools/list"), modern_headers("tools/list")), 400, INVALID_PARAMS, 1)


@pytest.mark.parametrize("method", ["initialize", "ping", "no/such-method"])
def test_initialize_ping_and_unknown_methods_are_404_method_not_found(plat: Platform, method: str) -> None:
    assert_rpc_error(plat.modern(method), 404, METHOD_NOT_FOUND, 1)


@pytest.mark.parametrize(
    ("method", "params", "name"),
    [
        ("server/discover", {}, None),
        ("tools/list", {}, None),
        ("tools/call", {"name": "hello_ping"}, "hello_ping"),
        ("resources/list", {}, None),
        ("resources/templates/list", {}, None),
        ("resources/read", {"uri": "docs://catalog"}, "docs://catalog"),
        ("resources/read", {"uri": "credits://balance"}, "credits://balance"),
        ("prompts/list", {}, None),
    ],
)
def test_every_result_has_result_type_and_server_info(
    plat: Platform, method: str, params: dict, name: str | None
) -> None:
    _result(plat.modern(method, params, name))


@pytest.mark.parametrize(
    ("method", "params", "name", "scope"),
    [
        ("tools/list", {}, None, "private"),
        ("resources/list", {}, None, "private"),
        ("resources/templates/list", {}, None, "public"),
        ("prompts/list", {}, None, "public"),
        ("resources/read", {"uri": "docs://catalog"}, "docs://catalog", "private"),
        ("resources/read", {"uri": "docs://hello/payload"}, "docs://hello/payload", "private"),
    ],
)
def test_list_results_and_reads_carry_caching_hints(
    plat: Platform, method: str, params: dict, name: str | None, scope: str
) -> None:
    result = _result(plat.modern(method, params, name))
    assert result["ttlMs"] > 0
    assert result["cacheScope"] == scope


def test_the_balance_is_never_cached(plat: Platform) -> None:
    result = _result(plat.modern("resources/read", {"uri": "credits://balance"}, "credits://balance"))
    assert result["ttlMs"] == 0
    assert result["cacheScope"] == "private"


def test_tool_results_carry_no_caching_hints(plat: Platform) -> None:
    result = _result(plat.modern("tools/call", {"name": "hello_ping"}, "hello_ping"))
    assert "ttlMs" not in result and "cacheScope" not in result


def test_unknown_resource_is_400_invalid_params(plat: Platform) -> None:
    response = plat.modern("resources/read", {"uri": "docs://nope/payload"}, "docs://nope/payload")
    error = assert_rpc_error(response, 400, INVALID_PARAMS, 1)
    assert error["data"] == {"uri": "docs://nope/payload"}


def test_unknown_tool_is_400_invalid_params(plat: Platform) -> None:
    assert_rpc_error(plat.modern("tools/call", {"name": "nope_nope"}, "nope_nope"), 400, INVALID_PARAMS, 1)


def test_batches_are_rejected(plat: Platform) -> None:
    batch = [message("tools/list", with_meta({})), message("server/discover", with_meta({}), rpc_id=2)]
    assert_rpc_error(plat.post(batch, modern_headers("tools/list")), 400, INVALID_REQUEST)


def test_a_notification_is_202(plat: Platform) -> None:
    response = plat.post(notification("notifications/initialized"), modern_headers("notifications/initialized"))
    assert response.status == 202
    assert response.body == b""
