"""The local store's DynamoDB emulation (`localdev.store.moto_as_dynamodb`): what moto must do as DynamoDB does."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from botocore.exceptions import ClientError

from mcp_platform.storage.aws import client

pytestmark = pytest.mark.usefixtures("aws")
TABLE = "LedgerTable"


def _key(n: int) -> dict[str, Any]:
    return {"account_id": {"S": "acct_x"}, "entry_id": {"S": f"e{n}"}}


def _item(n: int, amount: int) -> dict[str, Any]:
    return {**_key(n), "amount": {"N": str(amount)}}


def _put(n: int, amount: int) -> dict[str, Any]:
    return {"Put": {"TableName": TABLE, "Item": _item(n, amount)}}


def _fails() -> dict[str, Any]:
    return {"ConditionCheck": {"TableName": TABLE, "Key": _key(99), "ConditionExpression": "attribute_exists(amount)"}}


def _amounts() -> dict[str, int]:
    rows = client("dynamodb").scan(TableName=TABLE)["Items"]
    return {row["entry_id"]["S"]: int(row["amount"]["N"]) for row in rows}


def test_a_failed_transaction_leaves_every_item_as_it_was() -> None:
    ddb = client("dynamodb")
    ddb.put_item(TableName=TABLE, Item=_item(1, 10))
    update = {
        "Update": {
            "TableName": TABLE,
            "Key": _key(1),
            "UpdateExpression": "SET amount = :a",
            "ExpressionAttributeValues": {":a": {"N": "20"}},
        }
    }
    delete = {"Delete": {"TableName": TABLE, "Key": _key(1)}}
    for written in ([update, _put(2, 5)], [_put(2, 5), delete]):
        with pytest.raises(ClientError) as caught:
            ddb.transact_write_items(TransactItems=[*written, _fails()])
        assert caught.value.response["Error"]["Code"] == "TransactionCanceledException"
        assert _amounts() == {"e1": 10}  # the update undone, the new item gone, the deleted one back


def test_a_failed_transaction_restores_nested_attributes() -> None:
    ddb = client("dynamodb")
    ddb.put_item(TableName=TABLE, Item={**_item(1, 10), "meta": {"M": {"tags": {"L": [{"S": "a"}]}}}})
    update = {
        "Update": {
            "TableName": TABLE,
            "Key": _key(1),
            "UpdateExpression": "SET meta.tags = list_append(meta.tags, :t)",
            "ExpressionAttributeValues": {":t": {"L": [{"S": "b"}]}},
        }
    }
    with pytest.raises(ClientError):
        ddb.transact_write_items(TransactItems=[update, _fails()])
    assert ddb.get_item(TableName=TABLE, Key=_key(1))["Item"]["meta"] == {"M": {"tags": {"L": [{"S": "a"}]}}}


def test_a_transaction_that_names_an_item_twice_is_refused_and_undone() -> None:
    ddb = client("dynamodb")
    ddb.put_item(TableName=TABLE, Item=_item(1, 10))
    with pytest.raises(ClientError) as caught:
        ddb.transact_write_items(TransactItems=[_put(1, 11), _put(1, 12)])
    assert caught.value.response["Error"]["Code"] == "ValidationException"
    assert _amounts() == {"e1": 10}


def test_a_transaction_copies_no_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """moto copied each named table whole before a transaction: a billed call grew slower with every entry."""
    from moto.dynamodb.models.table import Table

    copied = []
    real = copy.deepcopy

    def watched(value: Any, memo: dict[int, Any] | None = None) -> Any:
        copied.append(type(value))
        return real(value, memo)

    monkeypatch.setattr(copy, "deepcopy", watched)
    client("dynamodb").transact_write_items(TransactItems=[_put(1, 1), _put(2, 2)])
    assert _amounts() == {"e1": 1, "e2": 2}
    assert Table not in copied


def test_the_dev_account_alone_has_the_local_rate_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """`make dev`'s key is not held to the deployment's 120 calls a minute; a signed-up account is."""
    from localdev.server import DEV_ACCOUNT, DEV_RATE_LIMIT_PER_MINUTE, LocalPlatform
    from mcp_platform.auth.accounts import AccountAdmin
    from mcp_platform.auth.dynamodb import DynamoAccountStore
    from mcp_platform.billing.dynamodb import DynamoLedger
    from tests.support.dynamo import TABLE_ENV

    for name, value in TABLE_ENV.items():
        monkeypatch.setenv(name, value)
    LocalPlatform.from_env({}).seed()
    ddb = client("dynamodb")
    store = DynamoAccountStore(ddb, TABLE_ENV["ACCOUNTS_TABLE"], TABLE_ENV["API_KEYS_TABLE"])
    ledger = DynamoLedger(ddb, TABLE_ENV["ACCOUNTS_TABLE"], TABLE_ENV["LEDGER_TABLE"], TABLE_ENV["CALLS_TABLE"])
    other = AccountAdmin(store, ledger).create_account("agent", frozenset({"hello"}), 100)
    assert store.get_account(DEV_ACCOUNT).rate_limit_per_minute == DEV_RATE_LIMIT_PER_MINUTE  # type: ignore[union-attr]
    assert store.get_account(other.account_id).rate_limit_per_minute is None  # type: ignore[union-attr]
    assert LocalPlatform.from_env({"DEV_RATE_LIMIT_PER_MINUTE": "42"}).dev_rate_limit == 42
