"""DynamoDB cancels a transaction that races another on the same item; the ledger retries it.

Concurrent calls of one account race on its balance item, and DynamoDB answers
the loser with TransactionCanceledException (reason TransactionConflict) or,
for a single write racing a transaction, TransactionConflictException.
Nothing was written, so the ledger retries, at most `_CONFLICT_ATTEMPTS`
times; other cancellations surface at once. A charge whose record never lands is
given back at once when the store lets it (`ChargeNotRecordedError` says what is held). Stubbed with botocore's Stubber,
since moto never reports conflicts.
"""

from __future__ import annotations

import boto3
import pytest
from botocore.exceptions import ClientError
from botocore.stub import ANY, Stubber

from mcp_platform.billing import dynamodb
from mcp_platform.billing.dynamodb import DynamoLedger
from mcp_platform.billing.ledger import InsufficientCreditsError
from mcp_platform.billing.lifecycle import CallStart, ChargeNotRecordedError

START = CallStart("acct", "t", 3, "r", deadline=2_000_000_000.0)


@pytest.fixture(autouse=True)
def no_sleep(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("mcp_platform.billing.dynamodb.time.sleep", lambda _s: None)


def _ledger() -> tuple[DynamoLedger, Stubber]:
    client = boto3.client("dynamodb", region_name="us-east-1")
    return DynamoLedger(client, "Accounts", "Ledger", "CallBilling"), Stubber(client)


def _debited(stubber: Stubber, balance: int = 7) -> None:
    stubber.add_response("update_item", {"Attributes": {"balance": {"N": str(balance)}}})


def _cancelled(stubber: Stubber, *reasons: str) -> None:
    stubber.add_client_error(
        "transact_write_items",
        service_error_code="TransactionCanceledException",
        service_message="Transaction cancelled",
        http_status_code=400,
        response_meta={},
        modeled_fields={"CancellationReasons": [{"Code": r} for r in reasons]},
    )


def test_a_conflicting_transaction_is_retried_until_it_goes_through() -> None:
    ledger, stubber = _ledger()
    _debited(stubber)
    _cancelled(stubber, "TransactionConflict", "None", "None")
    _cancelled(stubber, "None", "TransactionConflict", "None")
    stubber.add_response("transact_write_items", {}, {"TransactItems": ANY})
    with stubber:
        record = ledger.open_call(START, now=1.0)
    stubber.assert_no_pending_responses()
    assert (record.amount, record.balance_after) == (3, 7)


def test_a_conflict_reported_as_its_own_exception_is_retried_too() -> None:
    ledger, stubber = _ledger()
    _debited(stubber)
    stubber.add_client_error("transact_write_items", service_error_code="TransactionConflictException")
    stubber.add_response("transact_write_items", {})
    with stubber:
        ledger.open_call(START, now=1.0)
    stubber.assert_no_pending_responses()


def test_an_insufficient_balance_is_not_retried_and_needs_no_extra_read() -> None:
    ledger, stubber = _ledger()
    stubber.add_client_error(
        "update_item",
        service_error_code="ConditionalCheckFailedException",
        modeled_fields={"Item": {"balance": {"N": "2"}}},
    )
    with stubber, pytest.raises(InsufficientCreditsError) as info:
        ledger.open_call(START, now=1.0)
    stubber.assert_no_pending_responses()
    assert (info.value.balance, info.value.price) == (2, 3)


def test_conflicts_that_never_clear_surface_after_the_retry_cap() -> None:
    assert dynamodb._CONFLICT_ATTEMPTS == 6
    ledger, stubber = _ledger()
    _debited(stubber)
    for _ in range(dynamodb._CONFLICT_ATTEMPTS):
        _cancelled(stubber, "TransactionConflict", "None", "None")
    stubber.add_response("transact_write_items", {})  # the charge given back at once
    with stubber, pytest.raises(ChargeNotRecordedError) as info:
        ledger.open_call(START, now=1.0)
    stubber.assert_no_pending_responses()  # exactly the cap, no more
    assert info.value.held == 0
    assert isinstance(info.value.__cause__, ClientError)
    assert info.value.__cause__.response["Error"]["Code"] == "TransactionCanceledException"


def test_a_cancellation_other_than_a_conflict_is_not_retried() -> None:
    ledger, stubber = _ledger()
    _debited(stubber)
    _cancelled(stubber, "None", "ConditionalCheckFailed", "None")
    _cancelled(stubber, "ConditionalCheckFailed", "None", "None")  # nor can it be given back now
    with stubber, pytest.raises(ChargeNotRecordedError) as info:
        ledger.open_call(START, now=1.0)
    stubber.assert_no_pending_responses()
    assert info.value.held == 3
