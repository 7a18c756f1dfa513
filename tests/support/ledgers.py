"""Both `CallLedger` adapters behind one fixture: the shared contract suite runs against each.

`ledger_pair(kind)` gives a ledger and a function that creates an account in
the store that ledger trusts (DynamoDB: the account item; memory: the
in-memory account store), so a test reads the same for both adapters.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import boto3

from mcp_platform.auth.dynamodb import DynamoAccountStore
from mcp_platform.auth.memory import MemoryAccountStore
from mcp_platform.auth.store import Account, AccountStore
from mcp_platform.billing.dynamodb import DynamoLedger
from mcp_platform.billing.memory import MemoryLedger
from tests.support.dynamo import TABLE_ENV

if TYPE_CHECKING:
    from mcp_platform.billing.lifecycle import CallLedger

ADAPTERS = ("memory", "dynamodb")


@dataclass
class LedgerUnderTest:
    kind: str
    ledger: CallLedger
    store: AccountStore
    ddb: Any = None

    def open_account(self, account_id: str, credits: int = 0) -> None:
        self.store.create_account(Account(account_id, account_id))
        if credits:
            self.ledger.grant(account_id, credits, "welcome credits")


def make(kind: str) -> LedgerUnderTest:
    """`dynamodb` needs moto active (the `aws` fixture)."""
    if kind == "memory":
        store = MemoryAccountStore()
        return LedgerUnderTest(kind, MemoryLedger(store), store)
    ddb = boto3.client("dynamodb")
    dynamo_store = DynamoAccountStore(ddb, TABLE_ENV["ACCOUNTS_TABLE"], TABLE_ENV["API_KEYS_TABLE"])
    ledger = DynamoLedger(ddb, TABLE_ENV["ACCOUNTS_TABLE"], TABLE_ENV["LEDGER_TABLE"], TABLE_ENV["CALLS_TABLE"])
    return LedgerUnderTest(kind, ledger, dynamo_store, ddb)
