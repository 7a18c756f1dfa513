"""Connection profiles in the URL (?services=, ?tools=, ?profile=discover), tools_search and tools_call."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from mcp_platform.auth.accounts import AdminError
from mcp_platform.durable_tasks.memory import MemoryTaskStore
from mcp_platform.protocol.jsonrpc import INVALID_PARAMS, INVALID_REQUEST
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

PRICE = 3


def _platform(**kw: Any) -> tuple[Platform, ScriptedInvoker]:
    invoker = ScriptedInvoker()
    registry = fake_registry(
        fake_spec("fake_paid", price=PRICE, description="Echoes words back, for a price."),
        fake_spec("fake_long", price=PRICE, task_support="optional"),
        fake_spec("zeta_one", service="zeta", description="Counts the stars in the sky."),
        fake_spec("zeta_two", service="zeta"),
    )
    return platform(registry, invoker, **kw), invoker


def _names(result: dict[str, Any]) -> list[str]:
    return [tool["name"] for tool in result["tools"]]


def _charges(plat: Platform) -> list[tuple[str, int, str]]:
    """Ledger entries oldest first, without the welcome grant."""
    return [(str(e.kind), e.amount, e.tool) for e in reversed(plat.ledger.entries(plat.account_id, limit=100))][1:]


# -- listing


@pytest.mark.parametrize(
    ("query", "listed"),
    [
        ("", ["fake_paid", "fake_long", "hello_ping", "zeta_one", "zeta_two", "tools_search"]),
        ("services=zeta", ["zeta_one", "zeta_two", "tools_search"]),
        ("services=zeta,hello", ["hello_ping", "zeta_one", "zeta_two", "tools_search"]),
        ("services=zeta&services=hello", ["hello_ping", "zeta_one", "zeta_two", "tools_search"]),
        ("tools=zeta_two,fake_paid", ["fake_paid", "zeta_two", "tools_search"]),
        ("services=zeta&tools=zeta_two,fake_paid", ["zeta_two", "tools_search"]),
        ("profile=discover", ["tools_search", "tools_call"]),
        ("profile=discover&services=zeta", ["tools_search", "tools_call"]),
        ("other=ignored&services=fake", ["fake_paid", "fake_long", "tools_search"]),
    ],
)
def test_the_url_chooses_what_tools_list_lists_in_both_eras(query: str, listed: list[str]) -> None:
    plat, _ = _platform()
    assert _names(plat.rpc("tools/list", query=query)) == listed
    modern = body(plat.modern("tools/list", query=query))["result"]
    assert _names(modern) == listed
    assert (modern["ttlMs"], modern["cacheScope"]) == (300_000, "private")
    assert _names(plat.rpc("tools/list", query=query)) == listed, "deterministic order"


def test_a_batch_answers_every_member_within_the_profile() -> None:
    plat, invoker = _platform()
    batch = [
        message("tools/list", {}, 1),
        message("tools/call", {"name": "zeta_one", "arguments": {"text": "a"}}, 2),
        message("tools/call", {"name": "fake_paid", "arguments": {"text": "b"}}, 3),
    ]
    replies = {r["id"]: r for r in body(plat.post(batch, query="services=zeta"))}
    assert _names(replies[1]["result"]) == ["zeta_one", "zeta_two", "tools_search"]
    assert replies[2]["result"]["isError"] is False
    assert replies[3]["error"]["code"] == INVALID_PARAMS
    assert "not available on this connection" in replies[3]["error"]["message"]
    assert [request.tool for _, request in invoker.calls] == ["zeta_one"]
    assert _charges(plat) == []


@pytest.mark.parametrize("query", ["services=nope", "tools=zeta_one,nope", "profile=everything"])
def test_an_unknown_name_in_the_url_is_refused_not_an_empty_catalogue(query: str) -> None:
    plat, _ = _platform()
    error = assert_rpc_error(plat.post(message("tools/list"), query=query), 400, INVALID_REQUEST, 1)
    assert "nope" in error["message"] or "everything" in error["message"]


# -- refusals are uncharged


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_a_tool_outside_the_profile_is_refused_uncharged(era: str) -> None:
    plat, invoker = _platform()
    params = {"name": "fake_paid", "arguments": {"text": "hi"}}
    if era == "legacy":
        response = plat.post(message("tools/call", params), query="services=zeta")
        error = assert_rpc_error(response, 200, INVALID_PARAMS, 1)
    else:
        error = assert_rpc_error(
            plat.modern("tools/call", params, "fake_paid", "services=zeta"), 400, INVALID_PARAMS, 1
        )
    assert "fake_paid is not available on this connection (services=zeta)" in error["message"]
    assert invoker.calls == []
    assert _charges(plat) == []
    assert plat.ledger.balance(plat.account_id) == 100


def test_tools_call_cannot_reach_outside_the_profile_either() -> None:
    plat, invoker = _platform()
    params = {"name": "tools_call", "arguments": {"name": "fake_paid", "arguments": {"text": "hi"}}}
    response = plat.post(message("tools/call", params), query="profile=discover&services=zeta")
    assert "not available on this connection" in assert_rpc_error(response, 200, INVALID_PARAMS, 1)["message"]
    assert invoker.calls == [] and _charges(plat) == []


# -- a key's default profile


def test_a_keys_default_profile_applies_and_the_url_only_narrows_it() -> None:
    plat = platform(services={"hello", "qr", "pdf"})  # the real registry: keys are checked against it

    def listed(key: str, query: str = "") -> set[str]:
        return {name.split("_")[0] for name in _names(plat.rpc("tools/list", key=key, query=query))}

    key = plat.admin.issue_key(plat.account_id, profile="services=qr,hello")
    assert listed(key) == {"hello", "qr", "tools"}
    assert listed(key, "services=qr") == {"qr", "tools"}
    assert listed(key, "services=pdf,qr") == {"qr", "tools"}, "the URL never widens the key's profile"
    discover = plat.admin.issue_key(plat.account_id, profile="profile=discover")
    assert _names(plat.rpc("tools/list", key=discover, query="services=qr")) == ["tools_search", "tools_call"]


# -- tools_search


def test_tools_search_finds_a_tool_with_what_it_needs_to_call_it_free() -> None:
    plat, invoker = _platform()
    result = plat.call("tools_search", {"query": "count the stars", "limit": 2})
    [best, *_] = result["structuredContent"]["results"]
    assert best["name"] == "zeta_one"
    assert set(best) == {"name", "title", "service", "summary", "price", "inputSchema", "score"}
    assert best["inputSchema"]["required"] == ["text"]
    assert len(result["structuredContent"]["results"]) <= 2
    assert invoker.calls == [] and _charges(plat) == []


def test_tools_search_sees_only_the_connections_tools() -> None:
    plat, _ = _platform()
    result = plat.post(
        message("tools/call", {"name": "tools_search", "arguments": {"query": "echo words for a price"}}),
        query="services=zeta",
    )
    names = [hit["name"] for hit in body(result)["result"]["structuredContent"]["results"]]
    assert names and all(name.startswith("zeta_") for name in names)


@pytest.mark.parametrize("arguments", [{}, {"query": ""}, {"query": "x", "limit": 21}, {"query": "x", "other": 1}])
def test_tools_search_refuses_bad_arguments_naming_the_field(arguments: dict[str, Any]) -> None:
    plat, _ = _platform()
    result = plat.call("tools_search", arguments)
    assert result["isError"] is True
    assert result["structuredContent"]["code"] == "invalid_arguments"


# -- tools_call is tools/call


def test_tools_call_is_billed_and_answered_exactly_as_tools_call() -> None:
    direct, direct_invoker = _platform()
    meta, meta_invoker = _platform()
    plain = direct.call("fake_paid", {"text": "hi"})
    wrapped = meta.call("tools_call", {"name": "fake_paid", "arguments": {"text": "hi"}})
    assert wrapped == plain
    assert wrapped["structuredContent"]["credits_charged"] == PRICE
    assert _charges(meta) == _charges(direct) == [("charge", -PRICE, "fake_paid")]
    assert [r.arguments for _, r in meta_invoker.calls] == [r.arguments for _, r in direct_invoker.calls]


def test_tools_call_validates_the_tools_arguments_as_tools_call_does() -> None:
    plat, invoker = _platform()
    direct = plat.call("fake_paid", {"text": ""})
    wrapped = plat.call("tools_call", {"name": "fake_paid", "arguments": {"text": ""}})
    assert wrapped == direct and wrapped["isError"] is True
    assert plat.call("tools_call", {"arguments": {}})["structuredContent"]["code"] == "invalid_arguments"
    assert plat.call("tools_call", {"name": "tools_call"})["structuredContent"]["code"] == "invalid_arguments"
    assert invoker.calls == [] and _charges(plat) == []


def test_an_idempotent_retry_through_tools_call_replays_the_direct_call() -> None:
    plat, invoker = _platform()
    headers = {"idempotency-key": "one-call"}
    first = plat.call("fake_paid", {"text": "hi"}, headers)
    again = plat.call("tools_call", {"name": "fake_paid", "arguments": {"text": "hi"}}, headers)
    assert again == first
    assert len(invoker.calls) == 1
    assert _charges(plat) == [("charge", -PRICE, "fake_paid")]


def test_tools_call_starts_a_task_as_tools_call_does() -> None:
    store = MemoryTaskStore()
    plat, invoker = _platform(task_store=store, settings=RouterSettings())
    params = {"name": "tools_call", "arguments": {"name": "fake_long", "arguments": {"text": "hi"}}, "task": {}}
    created = plat.rpc("tools/call", params)["task"]
    invoker.run_tasks(store)
    result = plat.rpc("tasks/result", {"taskId": created["taskId"]})
    assert result["structuredContent"]["credits_charged"] == PRICE
    assert _charges(plat) == [("charge", -PRICE, "fake_long")]


def test_the_discover_profile_costs_under_4_kib_on_the_real_catalogue() -> None:
    plat = platform()
    legacy = plat.rpc("tools/list", query="profile=discover")
    modern = body(plat.modern("tools/list", query="profile=discover"))["result"]
    for result in (legacy, modern):
        assert _names(result) == ["tools_search", "tools_call"]
        assert len(orjson.dumps(result["tools"])) <= 4096
    found = plat.call("tools_search", {"query": "what is the capital of Australia?", "limit": 3})
    assert "geo_country_capital" in [hit["name"] for hit in found["structuredContent"]["results"]]


def test_a_key_cannot_be_issued_with_a_profile_the_router_would_refuse() -> None:
    plat, _ = _platform()
    with pytest.raises(AdminError, match="nope"):
        plat.admin.issue_key(plat.account_id, profile="services=nope")
