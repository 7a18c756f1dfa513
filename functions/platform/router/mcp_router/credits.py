"""The `credits://` resources: balance, the ledger page by page, and usage totals by day.

`credits://ledger` takes its options in the URI (resources/read has no other
parameters): `credits://ledger?since=2026-11-01&limit=50`, then the returned
`next_uri` (which carries the cursor) for the next, older page.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlencode, urlsplit

from mcp_platform.billing.usage import (
    USAGE_DAYS,
    InvalidUsageQueryError,
    parse_since,
    read_page,
    service_of_tool,
    usage,
)
from mcp_platform.protocol.jsonrpc import INVALID_PARAMS, JsonRpcError

if TYPE_CHECKING:
    from collections.abc import Callable

    from mcp_platform.billing.ledger import Ledger
    from mcp_platform.billing.usage import LedgerHistory
    from mcp_platform.catalogue.registry import Registry

RESOURCES = [
    {
        "uri": "credits://balance",
        "name": "balance",
        "title": "Your credit balance and latest ledger entries",
        "mimeType": "application/json",
    },
    {
        "uri": "credits://ledger",
        "name": "ledger",
        "title": "Every grant, charge and refund, newest first, with the balance after each (paged)",
        "mimeType": "application/json",
    },
    {
        "uri": "credits://usage",
        "name": "usage",
        "title": f"Credits per service and day (last {USAGE_DAYS} days unless ?since=)",
        "mimeType": "application/json",
    },
]
TEMPLATES = [
    {
        "uriTemplate": "credits://ledger{?since,limit,cursor}",
        "name": "ledger-page",
        "title": "Ledger entries since a date (YYYY-MM-DD), newest first; follow next_uri for older ones",
        "mimeType": "application/json",
    },
    {
        "uriTemplate": "credits://usage{?since}",
        "name": "usage-since",
        "title": "Credits per service and day since a date (YYYY-MM-DD)",
        "mimeType": "application/json",
    },
]


class CreditResources:
    def __init__(self, ledger: Ledger, history: LedgerHistory, registry: Registry, clock: Callable[[], float]) -> None:
        self._ledger = ledger
        self._history = history
        self._service_of = service_of_tool(lambda tool: spec.service if (spec := registry.get(tool)) else None)
        self._clock = clock

    def read(self, account_id: str, uri: str) -> dict[str, Any] | None:
        """The JSON body of a `credits://` resource, or None when `uri` is not one."""
        parts = urlsplit(uri)
        if parts.scheme != "credits" or parts.path not in ("", "/"):
            return None
        query = {k: v[-1] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
        try:
            if parts.netloc == "balance" and not query:
                return {
                    "account_id": account_id,
                    "balance": self._ledger.balance(account_id),
                    "entries": [e.to_wire() for e in self._ledger.entries(account_id, limit=20)],
                }
            if parts.netloc == "ledger":
                return self._ledger_page(account_id, query)
            if parts.netloc == "usage":
                return self._usage(account_id, query)
        except InvalidUsageQueryError as exc:
            raise JsonRpcError(INVALID_PARAMS, f"{uri}: {exc}", data={"uri": uri}) from None
        return None

    def _ledger_page(self, account_id: str, query: dict[str, str]) -> dict[str, Any]:
        _only(query, {"since", "limit", "cursor"})
        since = parse_since(query["since"]) if query.get("since") else None
        limit = _limit(query.get("limit", "50"))
        balance = self._ledger.balance(account_id)
        page = read_page(
            self._history, account_id, balance, self._service_of, since=since, cursor=query.get("cursor"), limit=limit
        )
        body: dict[str, Any] = {"account_id": account_id, "balance": balance, "entries": page.entries}
        if page.next_cursor:
            body["next_cursor"] = page.next_cursor
            body["next_uri"] = "credits://ledger?" + urlencode({"cursor": page.next_cursor, "limit": limit})
        return body

    def _usage(self, account_id: str, query: dict[str, str]) -> dict[str, Any]:
        _only(query, {"since"})
        balance = self._ledger.balance(account_id)
        totals = usage(self._history, account_id, balance, self._service_of, self._clock(), query.get("since"))
        body: dict[str, Any] = {"account_id": account_id, "since": totals.since, "totals_by_day": totals.totals_by_day}
        if totals.truncated is not None:
            body["truncated"] = f"only the newest {totals.truncated} entries are counted; ask for a later since"
        return body


def _only(query: dict[str, str], allowed: set[str]) -> None:
    if unknown := sorted(set(query) - allowed):
        raise InvalidUsageQueryError(f"unknown parameter(s) {unknown}; this resource takes {sorted(allowed)}")


def _limit(value: str) -> int:
    if not value.isdigit() or not 1 <= int(value) <= 200:
        raise InvalidUsageQueryError("limit: a whole number from 1 to 200")
    return int(value)
