"""The DynamoDB ledger under faults moto never produces (issue 34, sections 1 and 2), injected with botocore hooks.

- A debit or claim whose response is lost and that botocore sends again is the same charge, not a
  second one nor "insufficient credits".
- A debit cancelled by a conflicting transaction on the account item is retried with jitter within
  the call's deadline; only when the deadline is near does the store give up.
- A charge whose record cannot be written says what is true: given back now, or held until the sweep.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import pytest

from mcp_platform.billing.ledger import IdempotencyKey
from mcp_platform.billing.lifecycle import CallBilling, CallRecord, CallStart, ChargeNotRecordedError
from tests.support.clock import Clock
from tests.support.dynamo import TABLE_ENV
from tests.support.faults import fail_with, resend_after_success
from tests.support.ledgers import LedgerUnderTest, make

if TYPE_CHECKING:
    from collections.abc import Iterator

ACCOUNT = "acct_faults"
ACCOUNTS = TABLE_ENV["ACCOUNTS_TABLE"]


@pytest.fixture
def lut(aws: None) -> Iterator[LedgerUnderTest]:
    under_test = make("dynamodb")
    under_test.open_account(ACCOUNT, credits=10)
    yield under_test


@pytest.fixture
def clock() -> Clock:
    return Clock(time.time())


def _start(clock: Clock, key: IdempotencyKey | None = None, amount: int = 3) -> CallStart:
    return CallStart(ACCOUNT, "fake_paid", amount, "r1", clock.now + 30, idempotency=key)


def _key() -> IdempotencyKey:
    return IdempotencyKey.for_call(ACCOUNT, "k1", "fake_paid", b"{}")


@pytest.mark.parametrize("idempotent", [False, True])
def test_a_debit_sent_twice_is_one_charge(lut: LedgerUnderTest, clock: Clock, idempotent: bool) -> None:
    hits = resend_after_success(lut.ddb, "UpdateItem", table=ACCOUNTS)
    record = CallBilling(lut.ledger, clock=clock).reserve(_start(clock, _key() if idempotent else None))
    assert hits == [1]
    assert isinstance(record, CallRecord) and record.balance_after == 7
    audit = lut.ledger.audit(ACCOUNT)
    assert (audit.balance, audit.consistent, audit.journals) == (7, True, 0)


def test_a_claim_sent_twice_is_the_callers_own(lut: LedgerUnderTest, clock: Clock) -> None:
    hits = resend_after_success(lut.ddb, "PutItem", table=TABLE_ENV["CALLS_TABLE"])
    record = CallBilling(lut.ledger, clock=clock).reserve(_start(clock, _key()))
    assert hits == [1]
    assert isinstance(record, CallRecord) and record.charged and lut.ledger.balance(ACCOUNT) == 7


def test_a_debit_conflicting_with_a_transaction_is_retried(lut: LedgerUnderTest, clock: Clock) -> None:
    hits = fail_with(lut.ddb, "UpdateItem", "TransactionConflictException", times=3, table=ACCOUNTS)
    record = CallBilling(lut.ledger, clock=clock).reserve(_start(clock))
    assert hits == [3]
    assert isinstance(record, CallRecord) and record.balance_after == 7
    assert lut.ledger.audit(ACCOUNT).consistent


def test_debit_conflicts_stop_at_the_calls_deadline(lut: LedgerUnderTest, clock: Clock) -> None:
    fail_with(lut.ddb, "UpdateItem", "TransactionConflictException", times=1_000, table=ACCOUNTS)
    calls = CallBilling(lut.ledger, clock=clock)
    with pytest.raises(lut.ddb.exceptions.TransactionConflictException):
        calls.reserve(CallStart(ACCOUNT, "fake_paid", 3, "r1", clock.now + 3.5))
    assert lut.ledger.balance(ACCOUNT) == 10


def test_a_charge_whose_record_fails_is_given_back_at_once(lut: LedgerUnderTest, clock: Clock) -> None:
    fail_with(lut.ddb, "TransactWriteItems", "InternalServerError", times=1)
    with pytest.raises(ChargeNotRecordedError) as raised:
        CallBilling(lut.ledger, clock=clock).reserve(_start(clock))
    assert raised.value.held == 0
    audit = lut.ledger.audit(ACCOUNT)
    assert (audit.balance, audit.journals, audit.consistent) == (10, 0, True)


def test_a_charge_that_cannot_be_recorded_nor_given_back_says_it_is_held(lut: LedgerUnderTest, clock: Clock) -> None:
    fail_with(lut.ddb, "TransactWriteItems", "InternalServerError", times=1_000)
    with pytest.raises(ChargeNotRecordedError) as raised:
        CallBilling(lut.ledger, clock=clock).reserve(_start(clock))
    assert raised.value.held == 3
    assert lut.ledger.audit(ACCOUNT).journals == 1
