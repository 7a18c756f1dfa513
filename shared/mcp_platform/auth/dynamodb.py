"""AccountStore on DynamoDB: ApiKeysTable (by key hash, GSI by account) and AccountsTable."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcp_platform.auth.store import Account, AccountExistsError, ApiKeyRecord

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient


class DynamoAccountStore:
    def __init__(self, client: DynamoDBClient, accounts_table: str, keys_table: str) -> None:
        self._ddb = client
        self._accounts = accounts_table
        self._keys = keys_table

    def get_key(self, key_hash: str) -> ApiKeyRecord | None:
        item = self._ddb.get_item(TableName=self._keys, Key={"key_hash": {"S": key_hash}}).get("Item")
        return _key_record(item) if item else None

    def put_key(self, record: ApiKeyRecord) -> None:
        self._ddb.put_item(
            TableName=self._keys,
            Item={
                "key_hash": {"S": record.key_hash},
                "account_id": {"S": record.account_id},
                "prefix": {"S": record.prefix},
                "created_at": {"S": record.created_at},
                "revoked": {"BOOL": record.revoked},
            },
            ConditionExpression="attribute_not_exists(key_hash)",
        )

    def revoke_key(self, key_hash: str) -> bool:
        try:
            self._ddb.update_item(
                TableName=self._keys,
                Key={"key_hash": {"S": key_hash}},
                UpdateExpression="SET revoked = :t",
                ConditionExpression="attribute_exists(key_hash)",
                ExpressionAttributeValues={":t": {"BOOL": True}},
            )
        except self._ddb.exceptions.ConditionalCheckFailedException:
            return False
        return True

    def keys_of(self, account_id: str) -> list[ApiKeyRecord]:
        pages = self._ddb.get_paginator("query").paginate(
            TableName=self._keys,
            IndexName="by_account",
            KeyConditionExpression="account_id = :a",
            ExpressionAttributeValues={":a": {"S": account_id}},
        )
        return sorted((_key_record(i) for page in pages for i in page["Items"]), key=lambda r: r.created_at)

    def get_account(self, account_id: str) -> Account | None:
        item = self._ddb.get_item(
            TableName=self._accounts,
            Key={"account_id": {"S": account_id}},
            ProjectionExpression="account_id, #n, services, rate_limit_per_minute",
            ExpressionAttributeNames={"#n": "name"},
        ).get("Item")
        if not item:
            return None
        rate = item.get("rate_limit_per_minute", {}).get("N")
        return Account(
            account_id=item["account_id"]["S"],
            name=item.get("name", {}).get("S", ""),
            services=frozenset(item.get("services", {}).get("SS", [])),
            rate_limit_per_minute=int(rate) if rate else None,
        )

    def create_account(self, account: Account) -> None:
        item: dict[str, Any] = {
            "account_id": {"S": account.account_id},
            "name": {"S": account.name},
            "balance": {"N": "0"},
        }
        if account.services:
            item["services"] = {"SS": sorted(account.services)}
        if account.rate_limit_per_minute:
            item["rate_limit_per_minute"] = {"N": str(account.rate_limit_per_minute)}
        try:
            self._ddb.put_item(
                TableName=self._accounts, Item=item, ConditionExpression="attribute_not_exists(account_id)"
            )
        except self._ddb.exceptions.ConditionalCheckFailedException:
            raise AccountExistsError(account.account_id) from None

    def set_services(self, account_id: str, services: frozenset[str]) -> None:
        # A string set cannot be empty in DynamoDB: no services means no attribute.
        update = "SET services = :s" if services else "REMOVE services"
        kwargs: dict[str, Any] = {":s": {"SS": sorted(services)}} if services else {}
        self._ddb.update_item(
            TableName=self._accounts,
            Key={"account_id": {"S": account_id}},
            UpdateExpression=update,
            ConditionExpression="attribute_exists(account_id)",
            **({"ExpressionAttributeValues": kwargs} if kwargs else {}),
        )


def _key_record(item: dict[str, Any]) -> ApiKeyRecord:
    return ApiKeyRecord(
        key_hash=item["key_hash"]["S"],
        account_id=item["account_id"]["S"],
        prefix=item["prefix"]["S"],
        created_at=item["created_at"]["S"],
        revoked=item.get("revoked", {}).get("BOOL", False),
    )
