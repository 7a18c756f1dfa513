"""Usage export: an account's ledger newest first, with the balance after each entry, and daily totals.

Read by `mcp-admin usage` and the `credits://ledger` / `credits://usage` resources. Entries are
read with a Query on the ledger table's own key (account_id, entry_id), never a Scan: entry ids
begin with their ISO timestamp, so `since` is a key condition and a page continues from the
last entry id (the cursor).

Balance after: charges carry the balance their debit left (`balance_after`, written by the
call lifecycle). For grants and refunds it is derived walking back from the current balance,
each entry's balance after being the next newer entry's balance after minus that entry's
amount, and re-anchored on every charge's stored value. The cursor carries the running
balance, so a page costs one Query and the balance read, however deep it is.
"""

from __future__ import annotations

import base64
import binascii
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol

import orjson

from mcp_platform.billing.ledger import EntryKind, LedgerEntry

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

    from mypy_boto3_dynamodb import DynamoDBClient

    from mcp_platform.billing.ledger import Ledger

MAX_PAGE = 200


class InvalidUsageQueryError(ValueError):
    """A `since` or cursor that cannot be read."""


class LedgerHistory(Protocol):
    def page(
        self, account_id: str, *, since: str | None, after: str | None, limit: int
    ) -> tuple[list[LedgerEntry], bool]:
        """Up to `limit` entries newest first, older than entry id `after`, not before `since`; and if more exist."""
        ...


class DynamoLedgerHistory:
    """LedgerTable (account_id HASH, entry_id RANGE): one Query per page on the table's key."""

    def __init__(self, client: DynamoDBClient, ledger_table: str) -> None:
        self._ddb = client
        self._table = ledger_table

    def page(
        self, account_id: str, *, since: str | None, after: str | None, limit: int
    ) -> tuple[list[LedgerEntry], bool]:
        from mcp_platform.billing.dynamodb import _entry_of  # the ledger's own item reader

        condition = "account_id = :a" + (" AND entry_id >= :since" if since else "")
        values: dict[str, Any] = {":a": {"S": account_id}}
        if since:
            values[":since"] = {"S": since}
        kwargs: dict[str, Any] = {}
        if after:
            kwargs["ExclusiveStartKey"] = {"account_id": {"S": account_id}, "entry_id": {"S": after}}
        items = self._ddb.query(
            TableName=self._table,
            KeyConditionExpression=condition,
            ExpressionAttributeValues=values,
            ScanIndexForward=False,
            Limit=limit + 1,
            **kwargs,
        )["Items"]
        return [_entry_of(i) for i in items[:limit]], len(items) > limit


class MemoryLedgerHistory:
    """The same over an in-memory ledger (tests, the router benchmark)."""

    def __init__(self, ledger: Ledger) -> None:
        self._ledger = ledger

    def page(
        self, account_id: str, *, since: str | None, after: str | None, limit: int
    ) -> tuple[list[LedgerEntry], bool]:
        entries = [
            e
            for e in self._ledger.entries(account_id, limit=10**9)
            if (since is None or e.entry_id >= since) and (after is None or e.entry_id < after)
        ]
        return entries[:limit], len(entries) > limit


def parse_since(value: str) -> str:
    """A date (`2026-11-01`) or an ISO date-time, as the entry-id prefix it selects from (UTC)."""
    text = value.strip()
    try:
        if len(text) == 10:
            return date.fromisoformat(text).isoformat()
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise InvalidUsageQueryError(f"since: {value!r} is not a date (YYYY-MM-DD) or ISO date-time") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class Cursor:
    after: str
    """The entry id the next page continues after (older entries)."""
    balance: int
    """The balance after the first entry of the next page."""
    since: str | None

    def encode(self) -> str:
        raw = orjson.dumps({"a": self.after, "b": self.balance, "s": self.since})
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    @classmethod
    def decode(cls, value: str) -> Cursor:
        try:
            data = orjson.loads(base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)))
            cursor = cls(after=str(data["a"]), balance=int(data["b"]), since=data["s"])
        except (binascii.Error, orjson.JSONDecodeError, KeyError, TypeError, ValueError):
            raise InvalidUsageQueryError("cursor: not a cursor this server issued") from None
        if cursor.since is not None and not isinstance(cursor.since, str):
            raise InvalidUsageQueryError("cursor: not a cursor this server issued")
        return cursor


@dataclass(frozen=True)
class UsagePage:
    entries: list[dict[str, Any]]
    """`LedgerEntry.to_wire()` plus `service` and `balance_after`, newest first."""
    next_cursor: str | None


def service_of_tool(lookup: Callable[[str], str | None]) -> Callable[[str], str]:
    """`tool → service` from the registry, falling back to the tool's prefix for tools since removed."""

    def service(tool: str) -> str:
        return lookup(tool) or tool.split("_", 1)[0]

    return service


def read_page(
    history: LedgerHistory,
    account_id: str,
    balance_now: int,
    service_of: Callable[[str], str],
    *,
    since: str | None = None,
    cursor: str | None = None,
    limit: int = 50,
) -> UsagePage:
    """One page newest first; pass `next_cursor` back (with no `since`: the cursor keeps it) for the next."""
    limit = max(1, min(limit, MAX_PAGE))
    position = Cursor.decode(cursor) if cursor else None
    if position is not None:
        since, balance = position.since, position.balance
    else:
        balance = balance_now
    entries, more = history.page(account_id, since=since, after=position.after if position else None, limit=limit)
    rows = []
    for entry in entries:
        after = entry.balance_after if entry.balance_after is not None else balance
        rows.append(_row(entry, after, service_of))
        balance = after - entry.amount
    next_cursor = Cursor(entries[-1].entry_id, balance, since).encode() if more and entries else None
    return UsagePage(rows, next_cursor)


def read_all(
    history: LedgerHistory,
    account_id: str,
    balance_now: int,
    service_of: Callable[[str], str],
    since: str | None = None,
) -> Iterator[dict[str, Any]]:
    """Every entry since `since`, newest first, page by page."""
    cursor: str | None = None
    while True:
        page = read_page(history, account_id, balance_now, service_of, since=since, cursor=cursor, limit=MAX_PAGE)
        yield from page.entries
        if page.next_cursor is None:
            return
        cursor = page.next_cursor


USAGE_DAYS = 30
"""Usage without a `since` covers this many days (`credits://usage`, the portal)."""
USAGE_MAX_ENTRIES = 10_000
"""Usage reads at most this many entries (50 Queries) and then says it is truncated."""


@dataclass(frozen=True)
class Usage:
    since: str
    totals_by_day: list[dict[str, Any]]
    truncated: int | None = None
    """How many entries were counted when there were more (the oldest left out); None when complete."""


def usage(
    history: LedgerHistory,
    account_id: str,
    balance_now: int,
    service_of: Callable[[str], str],
    now: float,
    since: str | None = None,
) -> Usage:
    """Totals per day and service since `since` (default: `USAGE_DAYS` before `now`): the read model of
    `credits://usage` and of the portal's usage chart."""
    since = parse_since(since or (datetime.fromtimestamp(now, UTC) - timedelta(days=USAGE_DAYS)).date().isoformat())
    rows: list[dict[str, Any]] = []
    cursor: str | None = None
    while len(rows) < USAGE_MAX_ENTRIES:
        page = read_page(history, account_id, balance_now, service_of, since=since, cursor=cursor, limit=MAX_PAGE)
        rows += page.entries
        if (cursor := page.next_cursor) is None:
            break
    return Usage(since, daily_totals(rows), len(rows) if cursor is not None else None)


def daily_totals(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per day (UTC) and service: calls charged, credits charged, refunded and net; grants apart, by day."""
    totals: dict[tuple[str, str], dict[str, Any]] = defaultdict(
        lambda: {"calls": 0, "charged": 0, "refunded": 0, "granted": 0}
    )
    for row in rows:
        day = row["created_at"][:10]
        kind = row["kind"]
        key = (day, row.get("service", "") if kind != EntryKind.GRANT else "(grants)")
        bucket = totals[key]
        if kind == EntryKind.CHARGE:
            bucket["calls"] += 1
            bucket["charged"] += -row["amount"]
        elif kind == EntryKind.REFUND:
            bucket["refunded"] += row["amount"]
        else:
            bucket["granted"] += row["amount"]
    return [
        {"day": day, "service": service, **v, "net": v["charged"] - v["refunded"]}
        for (day, service), v in sorted(totals.items(), key=lambda kv: (kv[0][0], kv[0][1]), reverse=True)
    ]


def _row(entry: LedgerEntry, balance_after: int, service_of: Callable[[str], str]) -> dict[str, Any]:
    row = entry.to_wire()
    if entry.tool:
        row["service"] = service_of(entry.tool)
    row["balance_after"] = balance_after
    return row
