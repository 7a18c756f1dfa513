"""The calls and accounts indexes at scale (issue 34 §6): shards by parameter, no Scan in the sweep."""

from __future__ import annotations

import time

import boto3
import pytest

from mcp_platform.billing.dynamodb import MAX_OPEN_SHARDS, DynamoLedger
from mcp_platform.billing.lifecycle import CallBilling, CallStart
from tests.support.dynamo import TABLE_ENV, count_requests
from tests.support.faults import fail_with
from tests.support.ledgers import make

pytestmark = pytest.mark.usefixtures("aws")


def _ledger(shards: int) -> DynamoLedger:
    ddb = boto3.client("dynamodb")
    env = TABLE_ENV
    return DynamoLedger(ddb, env["ACCOUNTS_TABLE"], env["LEDGER_TABLE"], env["CALLS_TABLE"], open_shards=shards)


def test_records_spread_over_the_configured_shards_and_the_sweep_reads_every_shard() -> None:
    lut = make("dynamodb")
    lut.open_account("acct_scale", credits=1_000)
    now = time.time()
    writer = CallBilling(_ledger(40), clock=lambda: now)
    for i in range(60):
        writer.reserve(CallStart("acct_scale", "fake_paid", 1, f"r{i}", now + 1))
    shards = {i["open_shard"]["S"] for i in boto3.client("dynamodb").scan(TableName=TABLE_ENV["CALLS_TABLE"])["Items"]}
    assert len(shards) > 4 and all(int(s.removeprefix("open#")) < 40 for s in shards)
    # The sweep's ledger may have another shard setting (a lowered parameter): it still reads every shard.
    report = CallBilling(_ledger(2), clock=lambda: now + 5).sweep()
    assert len(report.refunded) == 60
    assert MAX_OPEN_SHARDS >= 40


def test_stranded_charges_are_found_without_a_scan() -> None:
    lut = make("dynamodb")
    for account in ("acct_idle_1", "acct_idle_2", "acct_stranded"):
        lut.open_account(account, credits=10)
    now = time.time()
    ledger = _ledger(8)
    fail_with(ledger._ddb, "TransactWriteItems", "InternalServerError", times=1_000)
    with pytest.raises(Exception, match="not recorded"):
        CallBilling(ledger, clock=lambda: now).reserve(CallStart("acct_stranded", "fake_paid", 3, "r1", now + 1))
    sweeper = _ledger(8)
    with count_requests(sweeper._ddb) as counter:
        report = CallBilling(sweeper, clock=lambda: now + 5).sweep()
    assert [r["account_id"] for r in report.reversed] == ["acct_stranded"]
    assert counter["Scan"] == 0
    assert lut.ledger.balance("acct_stranded") == 10
    assert lut.ledger.audit("acct_stranded").consistent
