"""tools/list: published shape, order, stateless pagination, approvals and preview tools."""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING, Any

import jsonschema
import pytest

from mcp_platform.protocol.jsonrpc import INVALID_PARAMS
from mcp_router.settings import RouterSettings
from tests.support.router import (
    Platform,
    ScriptedInvoker,
    assert_rpc_error,
    body,
    fake_registry,
    fake_spec,
    message,
    platform,
)

if TYPE_CHECKING:
    from mcp_platform.catalogue.registry import Registry

PAGE = 3


def _registry() -> Registry:
    # Declared out of service order on purpose: the registry sorts by service, then declaration.
    return fake_registry(
        fake_spec("zeta_one", service="zeta"),
        fake_spec("fake_b"),
        fake_spec("fake_a", price=2),
        fake_spec("fake_preview", preview=True),
        fake_spec("zeta_two", service="zeta"),
        fake_spec("fake_c"),
        fake_spec("other_x", service="other"),
    )


def _platform(services: set[str] | None = None, preview: bool = False, page: int = PAGE) -> Platform:
    settings = RouterSettings(tools_page_size=page, enable_preview_tools=preview)
    return platform(_registry(), ScriptedInvoker(), settings, services=services)


def _all_pages(plat: Platform) -> tuple[list[str], int]:
    names: list[str] = []
    cursor = None
    pages = 0
    while True:
        result = plat.rpc("tools/list", {"cursor": cursor} if cursor else {})
        pages += 1
        assert len(result["tools"]) <= PAGE
        names += [tool["name"] for tool in result["tools"]]
        cursor = result.get("nextCursor")
        if cursor is None:
            return names, pages
        assert isinstance(cursor, str) and cursor


def test_every_tool_has_the_published_shape() -> None:
    plat = platform()
    tools = plat.rpc("tools/list")["tools"]
    published = [spec.name for spec in plat.deps.registry if not spec.preview]
    assert [t["name"] for t in tools] == [*published, "tools_search"], "the whole catalogue in one page"
    assert "nextCursor" not in plat.rpc("tools/list")
    for tool in tools:
        assert set(tool) >= {"name", "title", "description", "inputSchema", "outputSchema", "annotations"}
        assert tool["title"] and tool["description"]
        assert tool["inputSchema"]["type"] == "object"
        assert tool["inputSchema"]["additionalProperties"] is False
        assert tool["outputSchema"]["type"] == "object"
        jsonschema.Draft202012Validator.check_schema(tool["inputSchema"])
        annotations = tool["annotations"]
        for hint in ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"):
            assert isinstance(annotations[hint], bool)


def test_fake_tool_publishes_bounds_defaults_and_annotations() -> None:
    tools = {t["name"]: t for t in _platform(page=50).rpc("tools/list")["tools"]}
    tool = tools["fake_a"]
    assert tool["inputSchema"] == {
        "description": "Input of every fake tool: one required bounded field, one optional.",
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "text": {"type": "string", "minLength": 1, "maxLength": 50, "description": "Something to echo."},
            "times": {"type": "integer", "default": 1, "minimum": 1, "maximum": 5, "description": "How often."},
        },
        "required": ["text"],
    }
    assert tool["annotations"] == {
        "title": "fake a",
        "readOnlyHint": False,
        "destructiveHint": False,
        "idempotentHint": True,
        "openWorldHint": True,
    }
    # A billed tool with a closed output schema also admits the billing fields.
    assert {"credits_charged", "credits_balance"} <= set(tool["outputSchema"]["properties"])
    assert set(tools["fake_b"]["outputSchema"]["properties"]) == {"echo"}


def test_pages_cover_every_visible_tool_once_in_a_deterministic_order() -> None:
    plat = _platform()
    names, pages = _all_pages(plat)
    assert names == ["fake_b", "fake_a", "fake_c", "hello_ping", "other_x", "zeta_one", "zeta_two", "tools_search"]
    assert pages == 3
    assert _all_pages(plat) == (names, pages)


def test_a_cursor_is_stateless_any_instance_can_continue_it() -> None:
    first = _platform().rpc("tools/list")
    second_page = _platform().rpc("tools/list", {"cursor": first["nextCursor"]})
    assert [t["name"] for t in second_page["tools"]] == ["hello_ping", "other_x", "zeta_one"]


def test_a_list_that_fits_one_page_has_no_next_cursor() -> None:
    result = _platform(page=50).rpc("tools/list")
    assert "nextCursor" not in result
    assert len(result["tools"]) == 8


def _cursor(raw: str) -> str:
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


@pytest.mark.parametrize(
    "cursor",
    ["garbage!!", "", 5, {"o": 1}, _cursor("o:999"), _cursor("o:-1"), _cursor("x:3"), _cursor("o:"), "////"],
    ids=["not-base64", "empty", "int", "object", "past-the-end", "negative", "wrong-tag", "no-offset", "binary"],
)
def test_bad_cursor_is_invalid_params(cursor: Any) -> None:
    plat = _platform()
    assert_rpc_error(plat.post(message("tools/list", {"cursor": cursor})), 200, INVALID_PARAMS, 1)


def test_bad_cursor_on_other_lists_is_invalid_params() -> None:
    plat = _platform()
    for method in ("resources/list", "resources/templates/list", "prompts/list"):
        assert_rpc_error(plat.post(message(method, {"cursor": "garbage!!"})), 200, INVALID_PARAMS, 1)


def test_only_approved_services_are_listed() -> None:
    plat = _platform(services={"zeta", "hello"}, page=50)
    listed = [t["name"] for t in plat.rpc("tools/list")["tools"]]
    assert listed == ["hello_ping", "zeta_one", "zeta_two", "tools_search"]
    nothing = _platform(services=set(), page=50)
    assert [t["name"] for t in nothing.rpc("tools/list")["tools"]] == ["tools_search"]


@pytest.mark.parametrize("tool", ["other_x", "no_such_tool", "fake_preview"])
def test_calling_an_unapproved_unknown_or_hidden_tool_is_invalid_params(tool: str) -> None:
    invoker = ScriptedInvoker()
    plat = platform(_registry(), invoker, services={"fake", "hello"})
    response = plat.post(message("tools/call", {"name": tool, "arguments": {"text": "x"}}, rpc_id=4))
    error = assert_rpc_error(response, 200, INVALID_PARAMS, 4)
    assert tool in error["message"]
    assert invoker.calls == []
    assert len(plat.ledger.entries(plat.account_id)) == 1  # the welcome grant only


@pytest.mark.parametrize("name", [None, 5, ["fake_a"]])
def test_tools_call_without_a_string_name_is_invalid_params(name: Any) -> None:
    plat = _platform()
    assert_rpc_error(plat.post(message("tools/call", {"name": name})), 200, INVALID_PARAMS, 1)


def test_preview_tools_are_hidden_unless_enabled() -> None:
    hidden = _platform(page=50)
    assert "fake_preview" not in [t["name"] for t in hidden.rpc("tools/list")["tools"]]
    shown = _platform(preview=True, page=50)
    assert "fake_preview" in [t["name"] for t in shown.rpc("tools/list")["tools"]]
    result = shown.call("fake_preview", {"text": "hi"})
    assert result["structuredContent"] == {"echo": "hi"}


def test_tools_list_is_the_same_for_every_request_of_an_account() -> None:
    plat = _platform(page=50)
    first = body(plat.post(message("tools/list", rpc_id=1)))
    again = body(plat.post(message("tools/list", rpc_id=1)))
    assert first == again
