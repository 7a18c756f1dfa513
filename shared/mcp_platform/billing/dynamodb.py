"""Ledger on DynamoDB: the balance on the account item, entries in LedgerTable.

Each balance change is one TransactWriteItems: the conditional balance update
(`balance >= :price`, so concurrent calls can never overspend) together with
the ledger entry (and, for an Idempotency-Key, the key's record), so the
balance and the ledger cannot disagree.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Any

import orjson

from mcp_platform.billing.ledger import (
    IDEMPOTENCY_TTL_SECONDS,
    Charge,
    EntryKind,
    IdempotencyConflictError,
    IdempotencyKey,
    IdempotentReplayError,
    InsufficientCreditsError,
    LedgerEntry,
    new_entry_id,
    now_iso,
    refund_entry_id,
)

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

_MAX_STORED_RESULT = 350_000
"""DynamoDB items stop at 400 KB; a larger result is settled without being kept for replay."""
_CONFLICT_ATTEMPTS = 6
"""DynamoDB cancels a transaction that races another on the same item (TransactionConflict);
concurrent calls of one account do that routinely, and a retry is safe (nothing was written)."""


class DynamoLedger:
    def __init__(self, client: DynamoDBClient, accounts_table: str, ledger_table: str, idempotency_table: str) -> None:
        self._ddb = client
        self._accounts = accounts_table
        self._ledger = ledger_table
        self._idem = idempotency_table

    def reserve(
        self, account_id: str, amount: int, *, tool: str, request_id: str, idempotency: IdempotencyKey | None = None
    ) -> Charge:
        charge = Charge(account_id, new_entry_id(), amount, tool, request_id, idempotency)
        items = [
            self._balance_change(account_id, -amount),
            self._entry_put(charge.entry_id, account_id, EntryKind.CHARGE, -amount, tool=tool, request_id=request_id),
        ]
        if idempotency:
            items.append(self._idempotency_put(idempotency, charge))
        try:
            self._transact(items)
        except self._ddb.exceptions.TransactionCanceledException as exc:
            reasons = [r.get("Code") for r in exc.response.get("CancellationReasons", [])]
            if idempotency and len(reasons) > 2 and reasons[2] == "ConditionalCheckFailed":
                self._raise_replay(idempotency)
            if reasons and reasons[0] == "ConditionalCheckFailed":
                raise InsufficientCreditsError(self.balance(account_id), amount) from None
            raise
        return charge

    def settle(self, charge: Charge, result: dict[str, Any]) -> None:
        if charge.idempotency is None:
            return
        blob = orjson.dumps(result)
        stored = {"S": blob.decode()} if len(blob) <= _MAX_STORED_RESULT else {"NULL": True}
        self._ddb.update_item(
            TableName=self._idem,
            Key={"idem_key": {"S": charge.idempotency.key}},
            UpdateExpression="SET #s = :done, #r = :r",
            ExpressionAttributeNames={"#s": "status", "#r": "result"},
            ExpressionAttributeValues={":done": {"S": "completed"}, ":r": stored},
        )

    def refund(self, charge: Charge, reason: str) -> None:
        items = [
            self._balance_change(charge.account_id, charge.amount),
            self._entry_put(
                refund_entry_id(charge),
                charge.account_id,
                EntryKind.REFUND,
                charge.amount,
                tool=charge.tool,
                request_id=charge.request_id,
                reason=reason,
            ),
        ]
        if charge.idempotency:
            # Forget the key so a retry of a failed call runs (and is charged) once more.
            items.append({"Delete": {"TableName": self._idem, "Key": {"idem_key": {"S": charge.idempotency.key}}}})
        try:
            self._transact(items)
        except self._ddb.exceptions.TransactionCanceledException as exc:
            reasons = [r.get("Code") for r in exc.response.get("CancellationReasons", [])]
            if len(reasons) > 1 and reasons[1] == "ConditionalCheckFailed":
                return  # already refunded
            raise

    def grant(self, account_id: str, amount: int, reason: str) -> int:
        entry_id = new_entry_id()
        try:
            self._transact(
                [
                    self._balance_change(account_id, amount, must_exist=True),
                    self._entry_put(entry_id, account_id, EntryKind.GRANT, amount, reason=reason),
                ]
            )
        except self._ddb.exceptions.TransactionCanceledException as exc:
            reasons = [r.get("Code") for r in exc.response.get("CancellationReasons", [])]
            if reasons and reasons[0] == "ConditionalCheckFailed":
                raise InsufficientCreditsError(self.balance(account_id), -amount) from None
            raise
        return self.balance(account_id)

    def balance(self, account_id: str) -> int:
        item = self._ddb.get_item(
            TableName=self._accounts,
            Key={"account_id": {"S": account_id}},
            ProjectionExpression="balance",
            ConsistentRead=True,
        ).get("Item")
        return int(item["balance"]["N"]) if item and "balance" in item else 0

    def entries(self, account_id: str, limit: int = 20) -> list[LedgerEntry]:
        items = self._ddb.query(
            TableName=self._ledger,
            KeyConditionExpression="account_id = :a",
            ExpressionAttributeValues={":a": {"S": account_id}},
            ScanIndexForward=False,
            Limit=limit,
        )["Items"]
        return [
            LedgerEntry(
                account_id=i["account_id"]["S"],
                entry_id=i["entry_id"]["S"],
                kind=EntryKind(i["kind"]["S"]),
                amount=int(i["amount"]["N"]),
                created_at=i["created_at"]["S"],
                tool=i.get("tool", {}).get("S", ""),
                request_id=i.get("request_id", {}).get("S", ""),
                reason=i.get("reason", {}).get("S", ""),
            )
            for i in items
        ]

    # -- transaction parts

    def _transact(self, items: list[dict[str, Any]]) -> None:
        """TransactWriteItems, retried (with jitter) while DynamoDB reports a conflicting transaction."""
        for attempt in range(_CONFLICT_ATTEMPTS):
            try:
                self._ddb.transact_write_items(TransactItems=items)
                return
            except self._ddb.exceptions.TransactionCanceledException as exc:
                reasons = {r.get("Code") for r in exc.response.get("CancellationReasons", [])}
                if "TransactionConflict" not in reasons or attempt == _CONFLICT_ATTEMPTS - 1:
                    raise
            except self._ddb.exceptions.TransactionConflictException:
                if attempt == _CONFLICT_ATTEMPTS - 1:
                    raise
            time.sleep(random.uniform(0.005, 0.02) * (attempt + 1))

    def _balance_change(self, account_id: str, delta: int, *, must_exist: bool = False) -> dict[str, Any]:
        update: dict[str, Any] = {
            "TableName": self._accounts,
            "Key": {"account_id": {"S": account_id}},
            "UpdateExpression": "SET balance = balance + :d",
            "ExpressionAttributeValues": {":d": {"N": str(delta)}},
            "ConditionExpression": "attribute_exists(account_id)",
        }
        if delta < 0:
            # Never below zero, checked by DynamoDB itself: this is what makes concurrent charges safe.
            update["ConditionExpression"] = "balance >= :need"
            update["ExpressionAttributeValues"][":need"] = {"N": str(-delta)}
        elif not must_exist:
            update.pop("ConditionExpression")
        return {"Update": update}

    def _entry_put(
        self,
        entry_id: str,
        account_id: str,
        kind: EntryKind,
        amount: int,
        *,
        tool: str = "",
        request_id: str = "",
        reason: str = "",
    ) -> dict[str, Any]:
        item = {
            "account_id": {"S": account_id},
            "entry_id": {"S": entry_id},
            "kind": {"S": str(kind)},
            "amount": {"N": str(amount)},
            "created_at": {"S": now_iso()},
        }
        for name, value in (("tool", tool), ("request_id", request_id), ("reason", reason)):
            if value:
                item[name] = {"S": value}
        return {
            "Put": {"TableName": self._ledger, "Item": item, "ConditionExpression": "attribute_not_exists(entry_id)"}
        }

    def _idempotency_put(self, idempotency: IdempotencyKey, charge: Charge) -> dict[str, Any]:
        now = int(time.time())
        return {
            "Put": {
                "TableName": self._idem,
                "Item": {
                    "idem_key": {"S": idempotency.key},
                    "fingerprint": {"S": idempotency.fingerprint},
                    "status": {"S": "in_progress"},
                    "charge_entry": {"S": charge.entry_id},
                    "expires_at": {"N": str(now + IDEMPOTENCY_TTL_SECONDS)},
                },
                # TTL deletion is lazy: an expired record counts as absent.
                "ConditionExpression": "attribute_not_exists(idem_key) OR expires_at < :now",
                "ExpressionAttributeValues": {":now": {"N": str(now)}},
            }
        }

    def _raise_replay(self, idempotency: IdempotencyKey) -> None:
        item = self._ddb.get_item(
            TableName=self._idem, Key={"idem_key": {"S": idempotency.key}}, ConsistentRead=True
        ).get("Item", {})
        if item.get("fingerprint", {}).get("S") != idempotency.fingerprint:
            raise IdempotencyConflictError("this Idempotency-Key was used for a different call") from None
        if item.get("status", {}).get("S") != "completed":
            raise IdempotencyConflictError("a call with this Idempotency-Key is still running; retry shortly") from None
        stored = item.get("result", {}).get("S")
        raise IdempotentReplayError(orjson.loads(stored) if stored else None) from None
