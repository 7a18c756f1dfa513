"""AccountStore on DynamoDB: ApiKeysTable (by key hash, GSI by account) and AccountsTable."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcp_platform.auth.signup import EmailTakenError, Invite, InviteRejectedError
from mcp_platform.auth.store import Account, AccountExistsError, ApiKeyRecord
from mcp_platform.storage.dynamo import cancellation_reasons, transact

if TYPE_CHECKING:
    from mypy_boto3_dynamodb import DynamoDBClient

_INVITE_USABLE = "remaining >= :one AND (attribute_not_exists(expires_at) OR expires_at > :now)"
"""An invite exists, has a use left and has not expired (TTL deletion is lazy, so expiry is checked here)."""


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
                **({"profile": {"S": record.profile}} if record.profile else {}),
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
        try:
            self._ddb.put_item(**account_put(self._accounts, account))
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


def account_put(table: str, account: Account) -> dict[str, Any]:
    """The conditional Put of a new account item (balance 0: credits arrive through the ledger)."""
    item: dict[str, Any] = {
        "account_id": {"S": account.account_id},
        "name": {"S": account.name},
        "balance": {"N": "0"},
    }
    if account.services:
        item["services"] = {"SS": sorted(account.services)}
    if account.rate_limit_per_minute:
        item["rate_limit_per_minute"] = {"N": str(account.rate_limit_per_minute)}
    return {"TableName": table, "Item": item, "ConditionExpression": "attribute_not_exists(account_id)"}


class DynamoSignupStore:
    """SignupsTable holds `email#<address>` claims and `invite#<sha256>` codes (key `pk`).

    A sign-up is one TransactWriteItems: the email claim (must not exist), the
    account item, and one use of the invite (must exist, have uses left and not
    be expired). Two simultaneous sign-ups with one email cannot both pass the
    claim's condition, so exactly one account is created.
    """

    def __init__(self, client: DynamoDBClient, accounts_table: str, signups_table: str) -> None:
        self._ddb = client
        self._accounts = accounts_table
        self._signups = signups_table

    def account_for_email(self, email: str) -> str | None:
        """The account that signed up with `email` (normalised), if any: for signing in by email code."""
        item = self._ddb.get_item(TableName=self._signups, Key={"pk": {"S": f"email#{email}"}}).get("Item")
        return item["account_id"]["S"] if item and "account_id" in item else None

    def register(self, account: Account, email: str, invite: str | None, now: int) -> None:
        items: list[dict[str, Any]] = [
            {
                "Put": {
                    "TableName": self._signups,
                    "Item": {
                        "pk": {"S": f"email#{email}"},
                        "account_id": {"S": account.account_id},
                        "created_at": {"N": str(now)},
                    },
                    "ConditionExpression": "attribute_not_exists(pk)",
                }
            },
            {"Put": account_put(self._accounts, account)},
        ]
        if invite is not None:
            items.append(
                {
                    "Update": {
                        "TableName": self._signups,
                        "Key": {"pk": {"S": f"invite#{invite}"}},
                        "UpdateExpression": "SET remaining = remaining - :one",
                        "ConditionExpression": _INVITE_USABLE,
                        "ExpressionAttributeValues": {":one": {"N": "1"}, ":now": {"N": str(now)}},
                    }
                }
            )
        try:
            transact(self._ddb, items)
        except self._ddb.exceptions.TransactionCanceledException as exc:
            reasons = cancellation_reasons(exc)
            if reasons[0] == "ConditionalCheckFailed":
                raise EmailTakenError(email) from None
            if len(reasons) > 2 and reasons[2] == "ConditionalCheckFailed":
                raise InviteRejectedError(invite) from None
            raise

    def put_invite(self, invite: Invite) -> None:
        item: dict[str, Any] = {
            "pk": {"S": f"invite#{invite.invite_id}"},
            "remaining": {"N": str(invite.uses)},
            "created_at": {"S": invite.created_at},
        }
        if invite.expires_at is not None:
            item["expires_at"] = {"N": str(invite.expires_at)}
        if invite.note:
            item["note"] = {"S": invite.note}
        self._ddb.put_item(TableName=self._signups, Item=item, ConditionExpression="attribute_not_exists(pk)")

    def revoke_invite(self, invite_id: str) -> bool:
        try:
            self._ddb.delete_item(
                TableName=self._signups,
                Key={"pk": {"S": f"invite#{invite_id}"}},
                ConditionExpression="attribute_exists(pk)",
            )
        except self._ddb.exceptions.ConditionalCheckFailedException:
            return False
        return True


def _key_record(item: dict[str, Any]) -> ApiKeyRecord:
    return ApiKeyRecord(
        key_hash=item["key_hash"]["S"],
        account_id=item["account_id"]["S"],
        prefix=item["prefix"]["S"],
        created_at=item["created_at"]["S"],
        revoked=item.get("revoked", {}).get("BOOL", False),
        profile=item.get("profile", {}).get("S"),
    )
