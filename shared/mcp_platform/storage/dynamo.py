"""DynamoDB transactions as the stores use them: retried while another transaction holds an item."""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

CONFLICT_ATTEMPTS = 6
"""DynamoDB cancels a transaction that races another on the same item (TransactionConflict); a retry
is safe because nothing was written, and the retry then meets the winner's conditions."""


def transact(client: DynamoDBClient, items: list[dict[str, Any]]) -> None:
    """TransactWriteItems, retried (with jitter) while DynamoDB reports a conflicting transaction.

    Any other cancellation (a failed condition) is raised as `TransactionCanceledException`.
    """
    for attempt in range(CONFLICT_ATTEMPTS):
        try:
            client.transact_write_items(TransactItems=items)
            return
        except client.exceptions.TransactionCanceledException as exc:
            if "TransactionConflict" not in cancellation_reasons(exc) or attempt == CONFLICT_ATTEMPTS - 1:
                raise
        except client.exceptions.TransactionConflictException:
            if attempt == CONFLICT_ATTEMPTS - 1:
                raise
        time.sleep(random.uniform(0.005, 0.02) * (attempt + 1))


def cancellation_reasons(exc: Any) -> list[str]:
    """The per-item cancellation codes of a cancelled transaction, in item order ('None' for items that passed)."""
    return [str(r.get("Code")) for r in exc.response.get("CancellationReasons", [])]
