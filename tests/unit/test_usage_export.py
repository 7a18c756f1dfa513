"""credits://ledger and credits://usage through the gateway, on both ledgers (DynamoDB on moto)."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, time, timedelta
from typing import Any

import orjson
import pytest

from mcp_platform.billing import dynamodb, ledger, memory
from mcp_platform.protocol.jsonrpc import INVALID_PARAMS
from tests.support.dynamo import count_requests
from tests.support.ledgers import ADAPTERS
from tests.support.router import (
    FAILED,
    OK,
    Platform,
    ScriptedInvoker,
    body,
    fake_registry,
    fake_spec,
    message,
    platform,
)

TODAY = datetime.now(UTC).date()
"""The day every entry is written on: the ledgers' clock is set to its noon, one microsecond a tick, so a
run across midnight cannot put the fixture's entries on two days or the test on another day than them."""


def _ticking_noon() -> str:
    return next(_INSTANTS).isoformat(timespec="microseconds").replace("+00:00", "Z")


_INSTANTS = (datetime.combine(TODAY, time(12), UTC) + timedelta(microseconds=n) for n in itertools.count())


@pytest.fixture(params=ADAPTERS)
def plat(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Platform:
    if request.param == "dynamodb":
        request.getfixturevalue("aws")
    for module in (ledger, memory, dynamodb):
        monkeypatch.setattr(module, "now_iso", _ticking_noon)
    registry = fake_registry(fake_spec("fake_paid", price=3), fake_spec("other_paid", service="other", price=2))
    invoker = ScriptedInvoker([OK, FAILED, OK, OK])
    plat = platform(registry=registry, invoker=invoker, credits=100, adapter=request.param)
    for tool in ("fake_paid", "fake_paid", "other_paid", "fake_paid"):  # ok, refunded, ok, ok
        plat.call(tool, {"text": "x"})
    plat.ledger.grant(plat.account_id, 10, "top-up")
    return plat


def read(plat: Platform, uri: str) -> dict[str, Any]:
    result = plat.rpc("resources/read", {"uri": uri})
    assert result["contents"][0]["mimeType"] == "application/json"
    return orjson.loads(result["contents"][0]["text"])


def _assert_chain(entries: list[dict[str, Any]], balance: int) -> None:
    """Newest first: the newest entry leaves the current balance; each older one what the newer started from."""
    assert entries[0]["balance_after"] == balance
    for newer, older in itertools.pairwise(entries):
        assert older["balance_after"] == newer["balance_after"] - newer["amount"], (newer, older)


def test_the_ledger_lists_every_entry_newest_first_with_the_balance_after(plat: Platform) -> None:
    page = read(plat, "credits://ledger")
    entries = page["entries"]
    assert [(e["kind"], e["amount"], e.get("tool")) for e in entries] == [
        ("grant", 10, None),
        ("charge", -3, "fake_paid"),
        ("charge", -2, "other_paid"),
        ("refund", 3, "fake_paid"),
        ("charge", -3, "fake_paid"),
        ("charge", -3, "fake_paid"),
        ("grant", 100, None),
    ]
    assert page["balance"] == 100 - 3 - 2 - 3 + 10 == entries[0]["balance_after"]
    _assert_chain(entries, page["balance"])
    assert entries[-1]["balance_after"] == 100
    charges = [e for e in entries if e["kind"] == "charge"]
    assert {e["service"] for e in charges} == {"fake", "other"}
    assert all(e["request_id"] for e in charges)
    assert "next_uri" not in page


def test_pages_follow_next_uri_without_gaps_or_repeats(plat: Platform) -> None:
    everything = read(plat, "credits://ledger")["entries"]
    seen: list[dict[str, Any]] = []
    uri = "credits://ledger?limit=2"
    while True:
        page = read(plat, uri)
        assert len(page["entries"]) <= 2
        seen += page["entries"]
        if "next_uri" not in page:
            break
        uri = page["next_uri"]
    assert seen == everything


def test_since_selects_by_day(plat: Platform) -> None:
    assert len(read(plat, f"credits://ledger?since={TODAY.isoformat()}")["entries"]) == 7
    assert read(plat, f"credits://ledger?since={(TODAY + timedelta(days=1)).isoformat()}")["entries"] == []
    limited = read(plat, f"credits://ledger?since={TODAY.isoformat()}&limit=3")
    rest = read(plat, limited["next_uri"])  # the cursor keeps `since`
    assert len(limited["entries"]) + len(rest["entries"]) + len(read(plat, rest["next_uri"])["entries"]) == 7


def test_usage_totals_per_service_and_day(plat: Platform) -> None:
    usage = read(plat, "credits://usage")
    by_service = {row["service"]: row for row in usage["totals_by_day"]}
    assert by_service["fake"] == {
        "day": TODAY.isoformat(),
        "service": "fake",
        "calls": 3,
        "charged": 9,
        "refunded": 3,
        "net": 6,
        "granted": 0,
    }
    assert by_service["other"]["net"] == 2 and by_service["other"]["calls"] == 1
    assert by_service["(grants)"]["granted"] == 110


@pytest.mark.parametrize(
    ("uri", "words"),
    [
        ("credits://ledger?since=yesterday", "since"),
        ("credits://ledger?cursor=bm90IGEgY3Vyc29y", "cursor"),
        ("credits://ledger?limit=0", "limit"),
        ("credits://ledger?page=2", "unknown parameter"),
        ("credits://usage?limit=5", "unknown parameter"),
    ],
)
def test_bad_options_are_invalid_params(plat: Platform, uri: str, words: str) -> None:
    reply = body(plat.post(message("resources/read", {"uri": uri})))
    assert reply["error"]["code"] == INVALID_PARAMS and words in reply["error"]["message"], reply


def test_the_resources_are_listed_with_their_templates(plat: Platform) -> None:
    uris = {r["uri"] for r in plat.rpc("resources/list")["resources"]}
    assert {"credits://balance", "credits://ledger", "credits://usage"} <= uris
    templates = {t["uriTemplate"] for t in plat.rpc("resources/templates/list")["resourceTemplates"]}
    assert {"credits://ledger{?since,limit,cursor}", "credits://usage{?since}"} <= templates


def test_a_page_is_one_query_on_the_ledger_key_never_a_scan(aws: None) -> None:
    plat = platform(
        registry=fake_registry(fake_spec("fake_paid", price=1)), invoker=ScriptedInvoker([OK]), adapter="dynamodb"
    )
    for _ in range(5):
        plat.call("fake_paid", {"text": "x"})
    with count_requests(plat.deps.history._ddb) as counter:  # type: ignore[union-attr]
        page = read(plat, "credits://ledger?limit=2")
        read(plat, page["next_uri"])
    assert counter["Scan"] == 0
    assert counter["Query"] == 2 and counter.writes == 0
