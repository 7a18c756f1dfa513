"""DynamoLedger against moto: atomic reservations, refunds, idempotency, grants, entry order."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import boto3
import pytest

from mcp_platform.auth.dynamodb import DynamoAccountStore
from mcp_platform.auth.store import Account
from mcp_platform.billing import ledger as billing
from mcp_platform.billing.dynamodb import DynamoLedger
from mcp_platform.billing.ledger import Charge, EntryKind, IdempotencyKey
from tests.support.dynamo import TABLE_ENV, count_requests

if TYPE_CHECKING:
    from collections.abc import Iterator

ACCOUNT = "acct_ledger"


@pytest.fixture
def ddb(aws: None) -> Any:
    return boto3.client("dynamodb")


@pytest.fixture
def ledger(ddb: Any) -> Iterator[DynamoLedger]:
    DynamoAccountStore(ddb, TABLE_ENV["ACCOUNTS_TABLE"], TABLE_ENV["API_KEYS_TABLE"]).create_account(
        Account(ACCOUNT, "ledger test")
    )
    yield DynamoLedger(ddb, TABLE_ENV["ACCOUNTS_TABLE"], TABLE_ENV["LEDGER_TABLE"], TABLE_ENV["IDEMPOTENCY_TABLE"])


def _sum(ledger: DynamoLedger) -> int:
    return sum(e.amount for e in ledger.entries(ACCOUNT, limit=1000))


def _reserve(ledger: DynamoLedger, amount: int = 3, idempotency: IdempotencyKey | None = None) -> Charge:
    return ledger.reserve(ACCOUNT, amount, tool="fake_paid", request_id="r1", idempotency=idempotency)


def test_a_new_account_has_zero_and_a_grant_is_an_entry(ledger: DynamoLedger) -> None:
    assert ledger.balance(ACCOUNT) == 0
    assert ledger.grant(ACCOUNT, 10, "welcome credits") == 10
    [entry] = ledger.entries(ACCOUNT)
    assert (entry.kind, entry.amount, entry.reason) == (EntryKind.GRANT, 10, "welcome credits")


def test_a_grant_to_a_missing_account_fails_and_writes_nothing(ledger: DynamoLedger) -> None:
    with pytest.raises(billing.InsufficientCreditsError):
        ledger.grant("acct_missing", 10, "x")
    assert ledger.entries("acct_missing") == []


def test_a_negative_grant_never_goes_below_zero(ledger: DynamoLedger) -> None:
    ledger.grant(ACCOUNT, 5, "w")
    with pytest.raises(billing.InsufficientCreditsError):
        ledger.grant(ACCOUNT, -6, "too much")
    assert ledger.grant(ACCOUNT, -5, "back") == 0
    assert _sum(ledger) == 0


def test_reserve_takes_the_price_and_records_a_charge(ledger: DynamoLedger) -> None:
    ledger.grant(ACCOUNT, 10, "w")
    charge = _reserve(ledger)
    assert ledger.balance(ACCOUNT) == 7
    newest = ledger.entries(ACCOUNT)[0]
    assert (newest.entry_id, newest.kind, newest.amount, newest.tool, newest.request_id) == (
        charge.entry_id,
        EntryKind.CHARGE,
        -3,
        "fake_paid",
        "r1",
    )


def test_reserve_beyond_the_balance_raises_and_writes_nothing(ledger: DynamoLedger) -> None:
    ledger.grant(ACCOUNT, 2, "w")
    with pytest.raises(billing.InsufficientCreditsError) as info:
        _reserve(ledger)
    assert info.value.balance == 2 and info.value.price == 3
    assert len(ledger.entries(ACCOUNT)) == 1
    assert ledger.balance(ACCOUNT) == 2


def test_concurrent_charges_never_overspend_and_the_ledger_sums_to_the_balance(ledger: DynamoLedger) -> None:
    ledger.grant(ACCOUNT, 10, "w")

    def attempt(_: int) -> bool:
        try:
            _reserve(ledger)
        except billing.InsufficientCreditsError:
            return False
        return True

    with ThreadPoolExecutor(max_workers=20) as pool:
        outcomes = list(pool.map(attempt, range(20)))
    assert outcomes.count(True) == 3
    assert ledger.balance(ACCOUNT) == 1
    assert _sum(ledger) == 1
    assert [e.kind for e in ledger.entries(ACCOUNT, limit=100)].count(EntryKind.CHARGE) == 3


def test_refund_restores_the_balance_and_a_second_refund_changes_nothing(ledger: DynamoLedger) -> None:
    ledger.grant(ACCOUNT, 10, "w")
    charge = _reserve(ledger)
    ledger.refund(charge, "error result")
    ledger.refund(charge, "error result")
    assert ledger.balance(ACCOUNT) == 10
    kinds = [(e.kind, e.amount) for e in ledger.entries(ACCOUNT)]
    assert kinds == [(EntryKind.REFUND, 3), (EntryKind.CHARGE, -3), (EntryKind.GRANT, 10)]
    assert ledger.entries(ACCOUNT)[0].reason == "error result"
    assert _sum(ledger) == 10


def _key(arguments: bytes = b'{"text":"hi"}', header: str = "k1") -> IdempotencyKey:
    return IdempotencyKey.for_call(ACCOUNT, header, 1, "fake_paid", arguments)


def test_an_idempotent_call_replays_its_settled_result_uncharged(ledger: DynamoLedger) -> None:
    ledger.grant(ACCOUNT, 10, "w")
    charge = _reserve(ledger, idempotency=_key())
    result = {"structured_content": {"echo": "hi", "credits_charged": 3}}
    ledger.settle(charge, result)
    with pytest.raises(billing.IdempotentReplayError) as info:
        _reserve(ledger, idempotency=_key())
    assert info.value.result == result
    assert ledger.balance(ACCOUNT) == 7
    assert _sum(ledger) == 7


def test_an_idempotency_key_for_other_arguments_or_still_running_is_a_conflict(ledger: DynamoLedger) -> None:
    ledger.grant(ACCOUNT, 10, "w")
    _reserve(ledger, idempotency=_key())
    with pytest.raises(billing.IdempotencyConflictError, match="still running"):
        _reserve(ledger, idempotency=_key())
    with pytest.raises(billing.IdempotencyConflictError, match="different call"):
        _reserve(ledger, idempotency=_key(b'{"text":"other"}'))
    assert ledger.balance(ACCOUNT) == 7


def test_a_refunded_idempotent_call_can_run_again(ledger: DynamoLedger) -> None:
    ledger.grant(ACCOUNT, 10, "w")
    charge = _reserve(ledger, idempotency=_key())
    ledger.refund(charge, "error result")
    again = _reserve(ledger, idempotency=_key())
    assert again.entry_id != charge.entry_id
    assert ledger.balance(ACCOUNT) == 7


def test_idempotency_keys_are_scoped_to_the_account_header_and_rpc_id() -> None:
    base = IdempotencyKey.for_call("a", "k", 1, "t", b"{}")
    assert IdempotencyKey.for_call("b", "k", 1, "t", b"{}").key != base.key
    assert IdempotencyKey.for_call("a", "k", "1", "t", b"{}").key != base.key
    assert IdempotencyKey.for_call("a", "k", 1, "t", b'{"x":1}').key == base.key
    assert IdempotencyKey.for_call("a", "k", 1, "t", b'{"x":1}').fingerprint != base.fingerprint


def test_entries_are_newest_first_and_limited(ledger: DynamoLedger) -> None:
    for i in range(5):
        ledger.grant(ACCOUNT, 1, f"g{i}")
    assert [e.reason for e in ledger.entries(ACCOUNT, limit=3)] == ["g4", "g3", "g2"]


def test_a_reservation_is_one_write_and_settle_without_a_key_is_none(ledger: DynamoLedger, ddb: Any) -> None:
    ledger.grant(ACCOUNT, 10, "w")
    with count_requests(ddb) as counter:
        charge = _reserve(ledger)
        ledger.settle(charge, {"structured_content": {}})
    assert dict(counter) == {"TransactWriteItems": 1}
