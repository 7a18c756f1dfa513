"""Reconciliation with fault injection, on DynamoDB (moto): the router dies mid-call, the sweep repairs it.

Two places a router can die holding credits: after the reservation is recorded
(the record stays `reserved`), and between the debit and its record (only the
journal on the account item knows). In both, two sweeps run at once past the
deadline restore the balance exactly once and the ledger says why.
"""

from __future__ import annotations

import dataclasses
import json
import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import orjson
import pytest

from localdev.invoker import InProcessInvoker
from mcp_admin import cli
from mcp_platform.auth.accounts import AccountAdmin
from mcp_platform.auth.dynamodb import DynamoAccountStore
from mcp_platform.billing.dynamodb import DynamoLedger, build_ledger
from mcp_platform.billing.lifecycle import CallBilling, CallState
from mcp_platform.protocol.payloads import ServiceReply, ServiceRequest
from mcp_platform.runtime.settings import LedgerSettings
from mcp_platform.storage.aws import client
from mcp_router.gateway import Gateway
from mcp_router.http import HttpRequest
from mcp_router.tool_calls import MIN_INVOKE_SECONDS, SETTLE_MARGIN_SECONDS
from mcp_router.wiring import dependencies_from_env
from tests.support.clock import Clock
from tests.support.dynamo import TABLE_ENV, router_env
from tests.support.router import JSON_HEADERS, ScriptedInvoker, fake_registry, fake_spec, message

if TYPE_CHECKING:
    from collections.abc import Iterator

PRICE = 3
ACCOUNT = "acct_faults"


class RouterKilled(BaseException):
    """The Lambda runtime stopping the router: nothing in the router can catch it."""


@dataclasses.dataclass
class Rig:
    gateway: Gateway
    ledger: DynamoLedger
    ddb: Any
    key: str
    invoker: ScriptedInvoker

    def call(self, headers: dict[str, str] | None = None, deadline: float | None = None) -> Any:
        body = message("tools/call", {"name": "fake_paid", "arguments": {"text": "hi"}})
        all_headers = {**JSON_HEADERS, "authorization": f"Bearer {self.key}", **(headers or {})}
        return self.gateway.handle(HttpRequest("POST", "/mcp", all_headers, orjson.dumps(body), deadline=deadline))

    def sweep_twice_at_once(self, later: float) -> list[Any]:
        calls = CallBilling(self.ledger, clock=Clock(time.time() + later))
        with ThreadPoolExecutor(max_workers=2) as pool:
            return list(pool.map(lambda _: calls.sweep(), range(2)))

    def balance(self) -> int:
        return self.ledger.balance(ACCOUNT)


def _ledger_settings() -> LedgerSettings:
    return LedgerSettings(
        accounts_table=TABLE_ENV["ACCOUNTS_TABLE"],
        ledger_table=TABLE_ENV["LEDGER_TABLE"],
        calls_table=TABLE_ENV["CALLS_TABLE"],
    )


@pytest.fixture
def rig(aws: None) -> Iterator[Rig]:
    client.cache_clear()
    invoker = ScriptedInvoker([ServiceReply(structured_content={"echo": "ok"})])
    deps = dependencies_from_env(invoker=invoker, env=router_env())
    deps = dataclasses.replace(deps, registry=fake_registry(fake_spec("fake_paid", price=PRICE)))
    ddb = client("dynamodb")
    ledger = build_ledger(_ledger_settings(), ddb)
    admin = AccountAdmin(DynamoAccountStore(ddb, TABLE_ENV["ACCOUNTS_TABLE"], TABLE_ENV["API_KEYS_TABLE"]), ledger)
    admin.create_account("faults", frozenset({"fake", "hello"}), 10, account_id=ACCOUNT)
    yield Rig(Gateway(deps), ledger, ddb, admin.issue_key(ACCOUNT), invoker)
    client.cache_clear()


def _killed(_request: ServiceRequest) -> ServiceReply:
    raise RouterKilled


def test_a_router_killed_between_reserve_and_settle_is_refunded_once_by_concurrent_sweeps(rig: Rig) -> None:
    rig.invoker.steps = [_killed]
    with pytest.raises(RouterKilled):
        rig.call()
    assert rig.balance() == 10 - PRICE  # the charge stands, the record is reserved
    assert [r.summary() for r in rig.ledger.overdue_calls(time.time())] == []  # not before the deadline
    reports = rig.sweep_twice_at_once(later=60)
    refunded = [r for report in reports for r in report.refunded]
    assert len(refunded) == 1 and refunded[0]["amount"] == PRICE
    assert rig.balance() == 10
    [refund] = [e for e in rig.ledger.entries(ACCOUNT) if e.kind == "refund"]
    assert "deadline" in refund.reason and refund.call_id == refunded[0]["call_id"]
    assert rig.ledger.get_call(refund.call_id).state is CallState.REFUNDED  # type: ignore[union-attr]
    assert rig.ledger.audit(ACCOUNT).consistent
    assert all(not (report.refunded or report.reversed) for report in rig.sweep_twice_at_once(later=60))


def test_a_router_killed_between_the_debit_and_its_record_is_reversed_once(rig: Rig) -> None:
    def die(**_kw: Any) -> None:
        raise RouterKilled

    rig.ddb.meta.events.register("before-call.dynamodb.TransactWriteItems", die, unique_id="kill-router")
    try:
        with pytest.raises(RouterKilled):
            rig.call()
    finally:
        rig.ddb.meta.events.unregister("before-call.dynamodb.TransactWriteItems", unique_id="kill-router")
    assert rig.invoker.calls == []  # the service never ran
    audit = rig.ledger.audit(ACCOUNT)
    assert (audit.balance, audit.ledger_sum, audit.journals, audit.journalled) == (7, 10, 1, PRICE)
    assert audit.consistent  # the journal accounts for the missing entry
    reports = rig.sweep_twice_at_once(later=60)
    reversed_ = [r for report in reports for r in report.reversed]
    assert len(reversed_) == 1 and reversed_[0]["amount"] == PRICE
    assert rig.balance() == 10
    kinds = [(e.kind, e.amount) for e in rig.ledger.entries(ACCOUNT)]
    assert sorted(kinds) == sorted([("grant", 10), ("charge", -PRICE), ("refund", PRICE)])
    assert "never recorded" in next(e.reason for e in rig.ledger.entries(ACCOUNT) if e.kind == "refund")
    after = rig.ledger.audit(ACCOUNT)
    assert after.consistent and after.journals == 0 and after.balance == after.ledger_sum == 10


def test_an_idempotent_retry_after_a_killed_router_runs_again_and_is_charged_once(rig: Rig) -> None:
    headers = {"idempotency-key": "after-crash"}
    rig.invoker.steps = [_killed, ServiceReply(structured_content={"echo": "second"})]
    with pytest.raises(RouterKilled):
        rig.call(headers)
    rig.sweep_twice_at_once(later=60)  # the scheduled sweep got there first
    result = orjson.loads(rig.call(headers).body)["result"]
    assert result["structuredContent"] == {"echo": "second", "credits_charged": PRICE, "credits_balance": 7}
    assert rig.balance() == 10 - PRICE
    assert rig.ledger.audit(ACCOUNT).consistent


def test_admin_cli_reconcile_prints_what_it_fixed(
    rig: Rig, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, value in TABLE_ENV.items():
        monkeypatch.setenv(name, value)
    rig.invoker.steps = [_killed]
    deadline = time.time() + SETTLE_MARGIN_SECONDS + MIN_INVOKE_SECONDS + 0.2  # a router with little time left
    with pytest.raises(RouterKilled):
        rig.call(deadline=deadline)
    time.sleep(max(0.0, deadline - time.time()) + 0.05)
    assert cli.main(["reconcile", "--audit", ACCOUNT]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["credits_returned"] == PRICE
    assert [r["account_id"] for r in printed["refunded"]] == [ACCOUNT]
    assert printed["audit"]["consistent"] is True and printed["audit"]["balance"] == 10
    assert cli.main(["reconcile"]) == 0
    assert json.loads(capsys.readouterr().out)["credits_returned"] == 0


def test_the_local_default_invoker_ignores_the_reconcile_function() -> None:
    assert "reconcile" not in InProcessInvoker().services


def test_the_scheduled_function_reports_what_it_fixed_as_a_metric(
    rig: Rig, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from localdev.context import LambdaContext
    from mcp_reconcile.app import handler

    for name, value in TABLE_ENV.items():
        monkeypatch.setenv(name, value)
    rig.invoker.steps = [_killed]
    deadline = time.time() + SETTLE_MARGIN_SECONDS + MIN_INVOKE_SECONDS + 0.2
    with pytest.raises(RouterKilled):
        rig.call(deadline=deadline)
    time.sleep(max(0.0, deadline - time.time()) + 0.05)
    capsys.readouterr()
    report = handler({"detail-type": "Scheduled Event"}, LambdaContext("reconcile"))
    assert report["credits_returned"] == PRICE and len(report["refunded"]) == 1
    emf = [json.loads(line) for line in capsys.readouterr().out.splitlines() if '"_aws"' in line]
    [metric] = [m for m in emf if "reconciled_calls" in m]
    assert (metric["reconciled_calls"], metric["reconciled_credits"]) == ([1.0], [float(PRICE)])
    assert metric["_aws"]["CloudWatchMetrics"][0]["Dimensions"] == [["service"]]  # the alarm's dimension
    assert rig.balance() == 10
