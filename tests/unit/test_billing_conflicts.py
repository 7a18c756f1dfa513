"""DynamoDB cancels a transaction that races another on the same item; the ledger retries it.

Concurrent calls of one account race on its balance item, and DynamoDB answers
the loser with TransactionCanceledException (reason TransactionConflict).
Nothing was written, so the ledger retries; only other cancellations surface.
Stubbed with botocore's Stubber, since moto never reports conflicts.
"""

from __future__ import annotations

from typing import Any

import boto3
import pytest
from botocore.stub import ANY, Stubber

from mcp_platform.billing.dynamodb import DynamoLedger
from mcp_platform.billing.ledger import InsufficientCreditsError


def _ledger() -> tuple[DynamoLedger, Stubber]:
    client = boto3.client("dynamodb", region_name="us-east-1")
    return DynamoLedger(client, "Accounts", "Ledger", "Idem"), Stubber(client)


def _cancelled(stubber: Stubber, *reasons: str) -> None:
    stubber.add_client_error(
        "transact_write_items",
        service_error_code="TransactionCanceledException",
        service_message="Transaction cancelled",
        http_status_code=400,
        response_meta={},
        modeled_fields={"CancellationReasons": [{"Code": r} for r in reasons]},
    )


def test_a_conflicting_transaction_is_retried_until_it_goes_through(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("mcp_platform.billing.dynamodb.time.sleep", lambda _s: None)
    ledger, stubber = _ledger()
    _cancelled(stubber, "TransactionConflict", "None")
    _cancelled(stubber, "TransactionConflict", "None")
    stubber.add_response("transact_write_items", {}, {"TransactItems": ANY})
    with stubber:
        charge = ledger.reserve("acct", 3, tool="t", request_id="r")
    stubber.assert_no_pending_responses()
    assert charge.amount == 3


def test_an_insufficient_balance_is_not_retried() -> None:
    ledger, stubber = _ledger()
    _cancelled(stubber, "ConditionalCheckFailed", "None")
    stubber.add_response(
        "get_item",
        {"Item": {"balance": {"N": "2"}}},
        {
            "TableName": "Accounts",
            "Key": {"account_id": {"S": "acct"}},
            "ProjectionExpression": "balance",
            "ConsistentRead": True,
        },
    )
    with stubber, pytest.raises(InsufficientCreditsError) as info:
        ledger.reserve("acct", 3, tool="t", request_id="r")
    assert (info.value.balance, info.value.price) == (2, 3)


def test_conflicts_that_never_clear_surface(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("mcp_platform.billing.dynamodb.time.sleep", lambda _s: None)
    ledger, stubber = _ledger()
    for _ in range(6):
        _cancelled(stubber, "TransactionConflict", "None")
    with stubber, pytest.raises(Exception) as info:
        ledger.reserve("acct", 3, tool="t", request_id="r")
    error: Any = info.value
    assert error.response["Error"]["Code"] == "TransactionCanceledException"
