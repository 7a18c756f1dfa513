"""`CallLedger` on DynamoDB: balances on AccountsTable, entries in LedgerTable, records in CallsTable.

A billed call is three writes, none a read:

1. **Debit** — one conditional `UpdateItem` on the account: `balance >= price`
   (so concurrent calls never overspend), `seq + 1`, and a *journal* attribute
   `j_<call>_<attempt>` describing the charge; `ReturnValues=UPDATED_NEW`
   gives this call's own post-charge balance (exact under concurrency).
2. **Record** — one `TransactWriteItems`: the charge entry (with
   `balance_after`), the call record (`reserved`, `in_progress_until`) and the
   removal of the journal. Until it lands, balance = ledger sum + journals;
   if the writer dies in between, the sweep finds the journal past its deadline
   through the sparse `stranded` index of AccountsTable (no Scan) and reverses it.
3. **Settle** (`UpdateItem` on the record) or **refund** (`TransactWriteItems`:
   balance back, a refund entry keyed by the charge, the record → refunded),
   both conditional on the record still being `reserved`.

An idempotent call first claims its record (a conditional `PutItem` keyed by
the Idempotency-Key; a failed condition returns the existing record in the same
request). `seq` counts every balance change, so an audit can check that the
ledger holds one entry per change.
"""

from __future__ import annotations

import math
import random
import time
import zlib
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar

import orjson

from mcp_platform.billing.ledger import (
    IDEMPOTENCY_TTL_SECONDS,
    EntryKind,
    InsufficientCreditsError,
    LedgerEntry,
    UnknownAccountError,
    new_entry_id,
    now_iso,
    refund_entry_id,
)
from mcp_platform.billing.lifecycle import (
    Audit,
    CallExistsError,
    CallRecord,
    CallStart,
    CallState,
    ChargeNotRecordedError,
    new_call_id,
)
from mcp_platform.runtime.observability import logger

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from mypy_boto3_dynamodb import DynamoDBClient

    from mcp_platform.runtime.settings import LedgerSettings

_MAX_STORED_RESULT = 350_000
"""DynamoDB items stop at 400 KB; a larger result is settled without being kept for replay."""
_CONFLICT_ATTEMPTS = 6
"""DynamoDB cancels a transaction that races another on the same item (TransactionConflict), and a
single write racing a transaction (TransactionConflictException); concurrent calls of one account
do that routinely, and a retry is safe (nothing was written)."""
_DEBIT_CONFLICT_ATTEMPTS = 10
"""A debit races every record, refund and reversal of its account (a batch runs 8 members at once):
it retries longer, with capped exponential jitter, but never past its deadline (`_DEBIT_MARGIN_S`)."""
_DEBIT_MARGIN_S = 3.0
"""Time a debit leaves before the call's deadline: the tool still has to run and be settled."""
_T = TypeVar("_T")
OPEN_INDEX = "open"
"""Sparse GSI of CallsTable: only reserved records carry `open_shard`, keyed by `in_progress_until`."""
DEFAULT_OPEN_SHARDS = 32
"""Partitions of the `open` index (template `CallsOpenShards`). Every billed call writes the index twice
(reserve adds the record, settle or refund removes it); a GSI partition absorbs 1,000 writes/s, so a target of
10,000 billed calls/s per region needs 20 shards: 32 leaves headroom (bench/capacity.py prints the figures)."""
MAX_OPEN_SHARDS = 64
"""The most `CallsOpenShards` may be: the sweep reads every shard up to it, so changing the parameter (up or
down) never strands a record in a shard nobody reads (64 Queries per run, most of them empty)."""
STRANDED_INDEX = "stranded"
"""Sparse GSI of AccountsTable: an account carries `journal_shard` from its first journalled debit until a
sweep finds no journal left; keyed by `journal_until`, the earliest deadline among them (no Scan)."""
_JOURNAL_SHARDS = 8
REVERSE_REASON = "reconciled: charged but never recorded as a call (the router stopped in between)"


class DynamoLedger:
    def __init__(
        self,
        client: DynamoDBClient,
        accounts_table: str,
        ledger_table: str,
        calls_table: str,
        open_shards: int = DEFAULT_OPEN_SHARDS,
    ) -> None:
        self._ddb = client
        self._accounts = accounts_table
        self._ledger = ledger_table
        self._calls = calls_table
        self._shards = max(1, min(open_shards, MAX_OPEN_SHARDS))

    # -- Ledger

    def grant(self, account_id: str, amount: int, reason: str) -> int:
        update = self._balance_change(account_id, amount)
        if amount < 0:
            update["Update"]["ConditionExpression"] = "balance >= :need"
            update["Update"]["ExpressionAttributeValues"][":need"] = {"N": str(-amount)}
        update["Update"]["ReturnValuesOnConditionCheckFailure"] = "ALL_OLD"
        entry = self._entry(account_id, new_entry_id(), EntryKind.GRANT, amount, reason=reason)
        try:
            self._transact([update, entry])
        except self._ddb.exceptions.TransactionCanceledException as exc:
            reasons = exc.response.get("CancellationReasons", [])
            if reasons and reasons[0].get("Code") == "ConditionalCheckFailed":
                old = reasons[0].get("Item")
                if not old:
                    raise UnknownAccountError(account_id) from None
                raise InsufficientCreditsError(int(old["balance"]["N"]), -amount) from None
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
        return [_entry_of(i) for i in items]

    # -- CallLedger

    def open_call(self, start: CallStart, *, now: float, replaces: int | None = None) -> CallRecord:
        record = CallRecord(
            call_id=start.idempotency.key if start.idempotency else new_call_id(),
            account_id=start.account_id,
            tool=start.tool,
            amount=start.amount,
            request_id=start.request_id,
            state=CallState.RESERVED,
            in_progress_until=start.deadline,
            attempt=(replaces or 0) + 1,
            fingerprint=start.idempotency.fingerprint if start.idempotency else "",
            origin=start.origin,
        )
        if start.idempotency:
            self._claim(record, now, replaces)
        entry_id = new_entry_id()
        balance_after = self._debit(record, entry_id)
        record = replace(record, entry_id=entry_id, balance_after=balance_after)
        try:
            self._record_charge(record)
        except Exception as exc:
            raise self._unrecorded(record) from exc
        return record

    def settle_call(self, record: CallRecord, result: dict[str, Any] | None) -> bool:
        values: dict[str, Any] = {
            ":settled": {"S": str(CallState.SETTLED)},
            ":exp": _expiry(),
            **_still_reserved_values(record),
        }
        update = "SET #s = :settled, expires_at = :exp REMOVE open_shard"
        if result is not None:
            blob = orjson.dumps(result)
            if len(blob) <= _MAX_STORED_RESULT:
                update = "SET #s = :settled, expires_at = :exp, #r = :r REMOVE open_shard"
                values[":r"] = {"S": blob.decode()}
        try:
            self._ddb.update_item(
                TableName=self._calls,
                Key={"call_id": {"S": record.call_id}},
                UpdateExpression=update,
                ConditionExpression=_STILL_RESERVED,
                ExpressionAttributeNames={"#s": "state", **({"#r": "result"} if ":r" in values else {})},
                ExpressionAttributeValues=values,
            )
        except self._ddb.exceptions.ConditionalCheckFailedException:
            return False
        return True

    def refund_call(self, record: CallRecord, reason: str) -> bool:
        end: dict[str, Any] = {
            "TableName": self._calls,
            "Key": {"call_id": {"S": record.call_id}},
            "UpdateExpression": "SET #s = :refunded, reason = :why, expires_at = :exp REMOVE open_shard",
            "ConditionExpression": _STILL_RESERVED,
            "ExpressionAttributeNames": {"#s": "state"},
            "ExpressionAttributeValues": {
                ":refunded": {"S": str(CallState.REFUNDED)},
                ":why": {"S": reason},
                ":exp": _expiry(),
                **_still_reserved_values(record),
            },
        }
        if not record.charged:
            # A claim that was never charged: nothing to give back, the record just ends.
            end["ConditionExpression"] += " AND attribute_not_exists(entry_id)"
            try:
                self._ddb.update_item(**end)
            except self._ddb.exceptions.ConditionalCheckFailedException:
                return False
            return True
        items = [
            self._balance_change(record.account_id, record.amount),
            self._entry(
                record.account_id,
                refund_entry_id(record.entry_id),
                EntryKind.REFUND,
                record.amount,
                tool=record.tool,
                request_id=record.request_id,
                call_id=record.call_id,
                reason=reason,
            ),
            {"Update": end},
        ]
        try:
            self._transact(items)
        except self._ddb.exceptions.TransactionCanceledException as exc:
            if "ConditionalCheckFailed" in _reasons(exc):
                return False  # already refunded or settled
            raise
        return True

    def get_call(self, call_id: str) -> CallRecord | None:
        item = self._ddb.get_item(TableName=self._calls, Key={"call_id": {"S": call_id}}, ConsistentRead=True).get(
            "Item"
        )
        return _record_of(item) if item else None

    def overdue_calls(self, now: float, limit: int = 500) -> list[CallRecord]:
        items = self._past(self._calls, OPEN_INDEX, ("open_shard", "open"), "in_progress_until", MAX_OPEN_SHARDS, now)
        found = [_record_of(i) for i in items]
        # The index is eventually consistent: the conditional settle/refund decides, not this list.
        return sorted(found, key=lambda r: r.in_progress_until)[:limit]

    def reverse_stranded(self, now: float) -> list[CallRecord]:
        reversed_: list[CallRecord] = []
        shard = ("journal_shard", "journal")
        for item in self._past(self._accounts, STRANDED_INDEX, shard, "journal_until", _JOURNAL_SHARDS, now):
            reversed_.extend(self._reverse_overdue_journals(item["account_id"]["S"], now))
        return reversed_

    def _past(
        self, table: str, index: str, shard: tuple[str, str], until: str, shards: int, now: float
    ) -> Iterator[dict[str, Any]]:
        """Items of a sharded sparse index (`shard` = (attribute, prefix): "<prefix>#<n>") whose `until` < `now`."""
        attribute, prefix = shard
        for n in range(shards):
            pages = self._ddb.get_paginator("query").paginate(
                TableName=table,
                IndexName=index,
                KeyConditionExpression=f"{attribute} = :s AND {until} < :now",
                ExpressionAttributeValues={":s": {"S": f"{prefix}#{n}"}, ":now": {"N": _num(now)}},
            )
            yield from (item for page in pages for item in page["Items"])

    def _reverse_overdue_journals(self, account_id: str, now: float) -> list[CallRecord]:
        """Reverse the account's journals past their deadline; then clear or move its `stranded` marker."""
        item = self._ddb.get_item(
            TableName=self._accounts, Key={"account_id": {"S": account_id}}, ConsistentRead=True
        ).get("Item", {})
        reversed_, waiting = [], []
        for name, value in item.items():
            journal = value.get("M") if name.startswith("j_") else None
            if not journal:
                continue
            if float(journal["until"]["N"]) < now and self._reverse(account_id, name, journal):
                reversed_.append(_journal_record(account_id, journal))
            elif float(journal["until"]["N"]) >= now:
                waiting.append(float(journal["until"]["N"]))
        seen = item.get("journal_until")
        if seen is not None:
            self._move_marker(account_id, seen, min(waiting) if waiting else None)
        return reversed_

    def _move_marker(self, account_id: str, seen: dict[str, str], until: float | None) -> None:
        """No journal left: remove the marker (only if none was added since); else key it by the next deadline."""
        update: dict[str, Any] = {
            "TableName": self._accounts,
            "Key": {"account_id": {"S": account_id}},
            "ConditionExpression": "journal_until = :seen",
            "ExpressionAttributeValues": {":seen": seen},
        }
        if until is None:
            update["UpdateExpression"] = "REMOVE journal_shard, journal_until"
            update["ConditionExpression"] += " AND (attribute_not_exists(pending) OR pending = :zero)"
            update["ExpressionAttributeValues"][":zero"] = {"N": "0"}
        else:
            update["UpdateExpression"] = "SET journal_until = :until"
            update["ExpressionAttributeValues"][":until"] = {"N": _num(until)}
        try:
            self._ddb.update_item(**update)
        except self._ddb.exceptions.ConditionalCheckFailedException:
            return  # a debit or another sweep changed it: the next run looks again

    def audit(self, account_id: str) -> Audit:
        item = self._ddb.get_item(
            TableName=self._accounts, Key={"account_id": {"S": account_id}}, ConsistentRead=True
        ).get("Item", {})
        journals = [v["M"] for k, v in item.items() if k.startswith("j_") and "M" in v]
        pages = self._ddb.get_paginator("query").paginate(
            TableName=self._ledger,
            KeyConditionExpression="account_id = :a",
            ExpressionAttributeValues={":a": {"S": account_id}},
            ProjectionExpression="amount",
            ConsistentRead=True,
        )
        amounts = [int(i["amount"]["N"]) for page in pages for i in page["Items"]]
        return Audit(
            account_id=account_id,
            balance=int(item.get("balance", {}).get("N", "0")),
            ledger_sum=sum(amounts),
            entries=len(amounts),
            changes=int(item.get("seq", {}).get("N", "0")),
            journals=len(journals),
            journalled=sum(int(j["amount"]["N"]) for j in journals),
        )

    # -- steps of open_call

    def _claim(self, record: CallRecord, now: float, replaces: int | None) -> None:
        """Take the Idempotency-Key: absent, expired, or the refunded attempt `replaces`.

        Retried by botocore like any write: a retry whose first attempt landed finds the very
        item it wrote, which is this caller's claim, not another's.
        """
        item = self._record_item(record)
        # A reserved record carries no expires_at (TTL never deletes it) and is never taken over: only the
        # sweep or its own writer ends it, so its charge is always refunded or settled.
        condition = "attribute_not_exists(call_id) OR (expires_at < :now AND #s <> :reserved)"
        values: dict[str, Any] = {":now": {"N": _num(now)}, ":reserved": {"S": str(CallState.RESERVED)}}
        if replaces is not None:
            condition += " OR (attempt = :prev AND #s = :refunded)"
            values.update({":prev": {"N": str(replaces)}, ":refunded": {"S": str(CallState.REFUNDED)}})
        try:
            self._ddb.put_item(
                TableName=self._calls,
                Item=item,
                ConditionExpression=condition,
                ExpressionAttributeValues=values,
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
                ExpressionAttributeNames={"#s": "state"},
            )
        except self._ddb.exceptions.ConditionalCheckFailedException as exc:
            old = exc.response.get("Item") or self._ddb.get_item(
                TableName=self._calls, Key={"call_id": {"S": record.call_id}}, ConsistentRead=True
            ).get("Item")
            if not old:  # released in between: let the caller try again
                raise CallExistsError(replace(record, state=CallState.REFUNDED)) from None
            if old == item:  # this claim's own first attempt, whose answer was lost
                return
            raise CallExistsError(_record_of(old)) from None

    def _debit(self, record: CallRecord, entry_id: str) -> int:
        """Take the price with a journal of the charge; returns this call's post-charge balance.

        Safe to send twice: botocore retries a write whose answer was lost (a 500, a read timeout),
        and the second attempt then fails `attribute_not_exists(#j)` against this very charge. The
        journal in the failed condition's old item, with this charge's entry id, says it landed;
        its balance then includes this charge (and any change since), so it stands as balance_after.
        """
        journal = _journal_name(record)
        try:
            response = self._retry_conflicts(
                lambda: self._ddb.update_item(
                    TableName=self._accounts,
                    Key={"account_id": {"S": record.account_id}},
                    UpdateExpression="SET balance = balance - :amt, seq = if_not_exists(seq, :zero) + :one, #j = :j, "
                    "journal_shard = if_not_exists(journal_shard, :js), "
                    "journal_until = if_not_exists(journal_until, :ju) ADD pending :one",
                    ConditionExpression="balance >= :amt AND attribute_not_exists(#j)",
                    ExpressionAttributeNames={"#j": journal},
                    ExpressionAttributeValues={
                        ":amt": {"N": str(record.amount)},
                        ":zero": {"N": "0"},
                        ":one": {"N": "1"},
                        ":j": {"M": _journal(record, entry_id)},
                        ":js": {"S": f"journal#{zlib.crc32(record.account_id.encode()) % _JOURNAL_SHARDS}"},
                        ":ju": {"N": _num(record.in_progress_until)},
                    },
                    ReturnValues="UPDATED_NEW",
                    ReturnValuesOnConditionCheckFailure="ALL_OLD",
                ),
                attempts=_DEBIT_CONFLICT_ATTEMPTS,
                until=record.in_progress_until - _DEBIT_MARGIN_S,
            )
        except self._ddb.exceptions.ConditionalCheckFailedException as exc:
            old = exc.response.get("Item", {})
            if old.get(journal, {}).get("M", {}).get("entry_id", {}).get("S") == entry_id:
                return int(old["balance"]["N"])
            self._release(record)
            raise InsufficientCreditsError(int(old.get("balance", {}).get("N", "0")), record.amount) from None
        except Exception:
            self._release(record)
            raise
        return int(response["Attributes"]["balance"]["N"])

    def _record_charge(self, record: CallRecord) -> None:
        """The charge entry, the reserved record and the journal's removal, in one transaction."""
        if record.fingerprint:
            names = {"#s": "state"}
            write: dict[str, Any] = {
                "Update": {
                    "TableName": self._calls,
                    "Key": {"call_id": {"S": record.call_id}},
                    "UpdateExpression": "SET entry_id = :e, balance_after = :b",
                    "ConditionExpression": _STILL_RESERVED + " AND attribute_not_exists(entry_id)",
                    "ExpressionAttributeNames": names,
                    "ExpressionAttributeValues": {
                        ":e": {"S": record.entry_id},
                        ":b": {"N": str(record.balance_after)},
                        **_still_reserved_values(record),
                    },
                }
            }
        else:
            write = {
                "Put": {
                    "TableName": self._calls,
                    "Item": self._record_item(record),
                    "ConditionExpression": "attribute_not_exists(call_id)",
                }
            }
        self._transact(
            [
                self._entry(
                    record.account_id,
                    record.entry_id,
                    EntryKind.CHARGE,
                    -record.amount,
                    tool=record.tool,
                    request_id=record.request_id,
                    call_id=record.call_id,
                    balance_after=record.balance_after,
                ),
                self._journal_removal(record.account_id, _journal_name(record)),
                write,
            ]
        )

    def _unrecorded(self, record: CallRecord) -> ChargeNotRecordedError:
        """A charge whose record failed: give it back now if the store lets us, else the sweep will."""
        journal = _journal(record, record.entry_id)
        try:
            given_back = self._reverse(record.account_id, _journal_name(record), journal)
        except Exception:
            given_back = False
        logger.error(
            "charge not recorded",
            extra={"call_id": record.call_id, "entry_id": record.entry_id, "given_back": given_back},
        )
        return ChargeNotRecordedError(record, 0 if given_back else record.amount)

    def _release(self, record: CallRecord) -> None:
        """Drop an idempotent claim whose charge did not happen, so the key is free again."""
        if not record.fingerprint:
            return
        try:
            self._ddb.delete_item(
                TableName=self._calls,
                Key={"call_id": {"S": record.call_id}},
                ConditionExpression="attempt = :a AND attribute_not_exists(entry_id)",
                ExpressionAttributeValues={":a": {"N": str(record.attempt)}},
            )
        except Exception:  # the record then ends through its deadline (sweep or retry)
            return

    def _reverse(self, account_id: str, journal_name: str, journal: dict[str, Any]) -> bool:
        """Give back a stranded charge: both entries, the balance and the journal's removal, at once."""
        amount = int(journal["amount"]["N"])
        entry_id = journal["entry_id"]["S"]
        fields = {"tool": journal["tool"]["S"], "request_id": journal["request_id"]["S"]}
        fields["call_id"] = journal["call_id"]["S"]
        removal = self._journal_removal(account_id, journal_name)
        update = removal["Update"]
        update["UpdateExpression"] = "SET balance = balance + :amt, seq = seq + :one REMOVE #j ADD pending :minus"
        update["ExpressionAttributeValues"].update({":amt": {"N": str(amount)}, ":one": {"N": "1"}})
        try:
            self._transact(
                [
                    removal,
                    self._entry(account_id, entry_id, EntryKind.CHARGE, -amount, **fields),
                    self._entry(
                        account_id, refund_entry_id(entry_id), EntryKind.REFUND, amount, reason=REVERSE_REASON, **fields
                    ),
                ]
            )
        except self._ddb.exceptions.TransactionCanceledException as exc:
            if "ConditionalCheckFailed" in _reasons(exc):
                return False  # recorded meanwhile, or reversed by a concurrent sweep
            raise
        return True

    # -- items

    def _transact(self, items: list[dict[str, Any]]) -> None:
        """TransactWriteItems, retried (with jitter) while DynamoDB reports a conflicting transaction.

        Safe to repeat: botocore fills the request's ClientRequestToken once per call, so its own
        retries of a transaction whose answer was lost are the same transaction (idempotent for 10 min).
        """
        self._retry_conflicts(lambda: self._ddb.transact_write_items(TransactItems=items))

    def _retry_conflicts(
        self, send: Callable[[], _T], *, attempts: int = _CONFLICT_ATTEMPTS, until: float = math.inf
    ) -> _T:
        """`send()`, again after a jittered pause while DynamoDB cancels it for a conflicting transaction.

        At most `attempts` sends, and no pause that would end after `until` (epoch seconds).
        """
        sent = 0
        while True:
            try:
                return send()
            except self._ddb.exceptions.TransactionCanceledException as exc:
                if "TransactionConflict" not in _reasons(exc):
                    raise
                conflict: Exception = exc
            except self._ddb.exceptions.TransactionConflictException as exc:
                conflict = exc
            pause = random.uniform(0.5, 1.0) * min(0.25, 0.01 * 2**sent)
            sent += 1
            if sent >= attempts or time.time() + pause >= until:
                raise conflict
            time.sleep(pause)

    def _balance_change(self, account_id: str, delta: int) -> dict[str, Any]:
        """An update of an existing account's balance by `delta`, counted in `seq` (one per ledger entry)."""
        return {
            "Update": {
                "TableName": self._accounts,
                "Key": {"account_id": {"S": account_id}},
                "UpdateExpression": "SET balance = balance + :d, seq = if_not_exists(seq, :zero) + :one",
                "ConditionExpression": "attribute_exists(account_id)",
                "ExpressionAttributeValues": {":d": {"N": str(delta)}, ":zero": {"N": "0"}, ":one": {"N": "1"}},
            }
        }

    def _journal_removal(self, account_id: str, journal_name: str) -> dict[str, Any]:
        return {
            "Update": {
                "TableName": self._accounts,
                "Key": {"account_id": {"S": account_id}},
                "UpdateExpression": "REMOVE #j ADD pending :minus",
                "ConditionExpression": "attribute_exists(#j)",
                "ExpressionAttributeNames": {"#j": journal_name},
                "ExpressionAttributeValues": {":minus": {"N": "-1"}},
            }
        }

    def _entry(self, account_id: str, entry_id: str, kind: EntryKind, amount: int, **fields: Any) -> dict[str, Any]:
        item = {
            "account_id": {"S": account_id},
            "entry_id": {"S": entry_id},
            "kind": {"S": str(kind)},
            "amount": {"N": str(amount)},
            "created_at": {"S": now_iso()},
        }
        for name, value in fields.items():
            if isinstance(value, int):
                item[name] = {"N": str(value)}
            elif value:
                item[name] = {"S": value}
        return {
            "Put": {"TableName": self._ledger, "Item": item, "ConditionExpression": "attribute_not_exists(entry_id)"}
        }

    def _record_item(self, record: CallRecord) -> dict[str, Any]:
        item: dict[str, Any] = {
            "call_id": {"S": record.call_id},
            "account_id": {"S": record.account_id},
            "tool": {"S": record.tool},
            "amount": {"N": str(record.amount)},
            "request_id": {"S": record.request_id},
            "state": {"S": str(record.state)},
            "in_progress_until": {"N": _num(record.in_progress_until)},
            "attempt": {"N": str(record.attempt)},
            "origin": {"S": record.origin},
            "open_shard": {"S": f"open#{zlib.crc32(record.call_id.encode()) % self._shards}"},
        }
        if record.fingerprint:
            item["fingerprint"] = {"S": record.fingerprint}
        if record.entry_id:
            item["entry_id"] = {"S": record.entry_id}
            item["balance_after"] = {"N": str(record.balance_after)}
        return item


_STILL_RESERVED = "attempt = :attempt AND #s = :reserved"


def build_ledger(settings: LedgerSettings, client: DynamoDBClient | None = None) -> DynamoLedger:
    """The one way a function gets its ledger: the billing tables of its settings, on the shared DynamoDB client."""
    if client is None:
        from mcp_platform.storage.aws import client as aws_client

        client = aws_client("dynamodb")
    return DynamoLedger(
        client, settings.accounts_table, settings.ledger_table, settings.calls_table, settings.calls_open_shards
    )


def _still_reserved_values(record: CallRecord) -> dict[str, Any]:
    return {":attempt": {"N": str(record.attempt)}, ":reserved": {"S": str(CallState.RESERVED)}}


def _reasons(exc: Any) -> list[str]:
    return [r.get("Code", "") for r in exc.response.get("CancellationReasons", [])]


def _expiry() -> dict[str, str]:
    """`expires_at` of a record that has just ended: its Idempotency-Key is kept for replay this long, then freed."""
    return {"N": str(int(time.time()) + IDEMPOTENCY_TTL_SECONDS)}


def _num(value: float) -> str:
    return f"{value:.3f}"


def _journal_name(record: CallRecord) -> str:
    return f"j_{record.call_id}_{record.attempt}"


def _journal(record: CallRecord, entry_id: str) -> dict[str, Any]:
    return {
        "call_id": {"S": record.call_id},
        "attempt": {"N": str(record.attempt)},
        "entry_id": {"S": entry_id},
        "amount": {"N": str(record.amount)},
        "tool": {"S": record.tool},
        "request_id": {"S": record.request_id},
        "origin": {"S": record.origin},
        "until": {"N": _num(record.in_progress_until)},
    }


def _journal_record(account_id: str, journal: dict[str, Any]) -> CallRecord:
    return CallRecord(
        call_id=journal["call_id"]["S"],
        account_id=account_id,
        tool=journal["tool"]["S"],
        amount=int(journal["amount"]["N"]),
        request_id=journal["request_id"]["S"],
        state=CallState.REFUNDED,
        in_progress_until=float(journal["until"]["N"]),
        attempt=int(journal["attempt"]["N"]),
        entry_id=journal["entry_id"]["S"],
        origin=journal["origin"]["S"],
        reason=REVERSE_REASON,
    )


def _record_of(item: dict[str, Any]) -> CallRecord:
    def s(name: str) -> str:
        return str(item.get(name, {}).get("S", ""))

    stored = item.get("result", {}).get("S")
    balance_after = item.get("balance_after", {}).get("N")
    return CallRecord(
        call_id=s("call_id"),
        account_id=s("account_id"),
        tool=s("tool"),
        amount=int(item["amount"]["N"]),
        request_id=s("request_id"),
        state=CallState(s("state")),
        in_progress_until=float(item["in_progress_until"]["N"]),
        attempt=int(item["attempt"]["N"]),
        entry_id=s("entry_id"),
        balance_after=int(balance_after) if balance_after is not None else None,
        fingerprint=s("fingerprint"),
        origin=s("origin") or "call",
        result=orjson.loads(stored) if stored else None,
        reason=s("reason"),
    )


def _entry_of(item: dict[str, Any]) -> LedgerEntry:
    balance_after = item.get("balance_after", {}).get("N")
    return LedgerEntry(
        account_id=item["account_id"]["S"],
        entry_id=item["entry_id"]["S"],
        kind=EntryKind(item["kind"]["S"]),
        amount=int(item["amount"]["N"]),
        created_at=item["created_at"]["S"],
        tool=item.get("tool", {}).get("S", ""),
        request_id=item.get("request_id", {}).get("S", ""),
        reason=item.get("reason", {}).get("S", ""),
        call_id=item.get("call_id", {}).get("S", ""),
        balance_after=int(balance_after) if balance_after is not None else None,
    )
