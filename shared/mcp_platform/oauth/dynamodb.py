"""GrantStore on DynamoDB: one table (OAuthTable), `pk` = `<kind>#<hash or id>`, `expires_at` its TTL.

Families carry `account_id`, so the sparse `by_account` index lists an account's connected apps.
TTL deletion is lazy: every read checks `expires_at` itself.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from mcp_platform.oauth.grants import CodeRecord, Family, Grant, RefreshReused, TokenRecord

if TYPE_CHECKING:
    from collections.abc import Callable

    from mypy_boto3_dynamodb import DynamoDBClient


class DynamoGrantStore:
    def __init__(self, client: DynamoDBClient, table: str, clock: Callable[[], float] = time.time) -> None:
        self._ddb = client
        self._table = table
        self._clock = clock

    # -- codes

    def put_code(self, code_hash: str, record: CodeRecord) -> None:
        item = {
            **_key("code", code_hash),
            **_grant_item(record.grant),
            "redirect_uri": {"S": record.redirect_uri},
            "redirect_uri_explicit": {"BOOL": record.redirect_uri_explicit},
            "code_challenge": {"S": record.code_challenge},
            "expires_at": {"N": str(record.expires_at)},
        }
        self._ddb.put_item(TableName=self._table, Item=item, ConditionExpression="attribute_not_exists(pk)")

    def take_code(self, code_hash: str) -> CodeRecord | None:
        item = self._take(_key("code", code_hash))
        return _code(item) if item else None

    def peek_code(self, code_hash: str) -> CodeRecord | None:
        item = self._get(_key("code", code_hash))
        return _code(item) if item else None

    # -- families

    def put_family(self, family: Family) -> None:
        item = {
            **_key("family", family.family_id),
            "account_id": {"S": family.account_id},
            "client_id": {"S": family.client_id},
            "client_name": {"S": family.client_name},
            "scopes": {"S": " ".join(family.scopes)},
            "created_at": {"N": str(family.created_at)},
            "expires_at": {"N": str(family.expires_at)},
            "revoked": {"BOOL": family.revoked},
        }
        self._ddb.put_item(TableName=self._table, Item=item)

    def families_of(self, account_id: str) -> list[Family]:
        pages = self._ddb.get_paginator("query").paginate(
            TableName=self._table,
            IndexName="by_account",
            KeyConditionExpression="account_id = :a",
            ExpressionAttributeValues={":a": {"S": account_id}},
        )
        now = self._clock()
        families = [_family(i) for page in pages for i in page["Items"]]
        return sorted((f for f in families if f.expires_at > now), key=lambda f: f.created_at)

    def revoke_family(self, family_id: str) -> None:
        try:
            self._ddb.update_item(
                TableName=self._table,
                Key=_key("family", family_id),
                UpdateExpression="SET revoked = :t",
                ConditionExpression="attribute_exists(pk)",
                ExpressionAttributeValues={":t": {"BOOL": True}},
            )
        except self._ddb.exceptions.ConditionalCheckFailedException:
            pass  # no such family: nothing to revoke

    # -- tokens

    def put_access(self, token_hash: str, record: TokenRecord) -> None:
        self._put_token("access", token_hash, record)

    def get_access(self, token_hash: str) -> TokenRecord | None:
        return self._live_token("access", token_hash)

    def put_refresh(self, token_hash: str, record: TokenRecord) -> None:
        self._put_token("refresh", token_hash, record)

    def get_refresh(self, token_hash: str) -> TokenRecord | None:
        return self._live_token("refresh", token_hash)

    def use_refresh(self, token_hash: str) -> TokenRecord:
        try:
            item = self._ddb.update_item(
                TableName=self._table,
                Key=_key("refresh", token_hash),
                UpdateExpression="SET used = :t",
                ConditionExpression="attribute_exists(pk) AND used = :f",
                ExpressionAttributeValues={":t": {"BOOL": True}, ":f": {"BOOL": False}},
                ReturnValues="ALL_NEW",
            )["Attributes"]
        except self._ddb.exceptions.ConditionalCheckFailedException:
            if (known := self._get(_key("refresh", token_hash))) is not None:
                self.revoke_family(known["family_id"]["S"])
            raise RefreshReused from None
        return _token(item)

    def revoke_token(self, token_hash: str) -> None:
        for kind in ("access", "refresh"):
            if (item := self._get(_key(kind, token_hash))) is not None:
                self.revoke_family(item["family_id"]["S"])
                return

    # -- documents

    def put_document(self, key: str, body: str, expires_at: int | None) -> None:
        item: dict[str, Any] = {**_key("doc", key), "body": {"S": body}}
        if expires_at is not None:
            item["expires_at"] = {"N": str(expires_at)}
        self._ddb.put_item(TableName=self._table, Item=item)

    def get_document(self, key: str) -> str | None:
        item = self._get(_key("doc", key))
        return item["body"]["S"] if item else None

    def take_document(self, key: str) -> str | None:
        item = self._take(_key("doc", key))
        return item["body"]["S"] if item else None

    # -- plumbing

    def _put_token(self, kind: str, token_hash: str, record: TokenRecord) -> None:
        item = {
            **_key(kind, token_hash),
            **_grant_item(record.grant),
            "expires_at": {"N": str(record.expires_at)},
            "used": {"BOOL": False},
        }
        self._ddb.put_item(TableName=self._table, Item=item, ConditionExpression="attribute_not_exists(pk)")

    def _live_token(self, kind: str, token_hash: str) -> TokenRecord | None:
        """The token and its family; None when either is gone, or the family is revoked."""
        record = self._get(_key(kind, token_hash))
        if record is None:
            return None
        family = self._get(_key("family", record["family_id"]["S"]))
        if family is None or family["revoked"]["BOOL"]:
            return None
        return _token(record)

    def _get(self, key: dict[str, Any]) -> dict[str, Any] | None:
        item = self._ddb.get_item(TableName=self._table, Key=key, ConsistentRead=True).get("Item")
        return item if item and _alive(item, self._clock()) else None

    def _take(self, key: dict[str, Any]) -> dict[str, Any] | None:
        """Delete the item if it exists and is unexpired, returning what was there (one conditional write)."""
        try:
            old = self._ddb.delete_item(
                TableName=self._table,
                Key=key,
                ConditionExpression="attribute_exists(pk) AND (attribute_not_exists(expires_at) OR expires_at > :now)",
                ExpressionAttributeValues={":now": {"N": str(int(self._clock()))}},
                ReturnValues="ALL_OLD",
            )
        except self._ddb.exceptions.ConditionalCheckFailedException:
            return None
        attributes: dict[str, Any] | None = old.get("Attributes")
        return attributes


def _key(kind: str, ident: str) -> dict[str, Any]:
    return {"pk": {"S": f"{kind}#{ident}"}}


def _alive(item: dict[str, Any], now: float) -> bool:
    return "expires_at" not in item or int(item["expires_at"]["N"]) > now


def _grant_item(grant: Grant) -> dict[str, Any]:
    return {
        "grant_account_id": {"S": grant.account_id},
        "client_id": {"S": grant.client_id},
        "scopes": {"S": " ".join(grant.scopes)},
        "resource": {"S": grant.resource},
        "family_id": {"S": grant.family_id},
    }


def _grant(item: dict[str, Any]) -> Grant:
    return Grant(
        account_id=item["grant_account_id"]["S"],
        client_id=item["client_id"]["S"],
        scopes=tuple(item["scopes"]["S"].split()),
        resource=item["resource"]["S"],
        family_id=item["family_id"]["S"],
    )


def _code(item: dict[str, Any]) -> CodeRecord:
    return CodeRecord(
        grant=_grant(item),
        redirect_uri=item["redirect_uri"]["S"],
        redirect_uri_explicit=item["redirect_uri_explicit"]["BOOL"],
        code_challenge=item["code_challenge"]["S"],
        expires_at=int(item["expires_at"]["N"]),
    )


def _token(item: dict[str, Any]) -> TokenRecord:
    return TokenRecord(grant=_grant(item), expires_at=int(item["expires_at"]["N"]))


def _family(item: dict[str, Any]) -> Family:
    return Family(
        family_id=item["pk"]["S"].removeprefix("family#"),
        account_id=item["account_id"]["S"],
        client_id=item["client_id"]["S"],
        client_name=item["client_name"]["S"],
        scopes=tuple(item["scopes"]["S"].split()),
        created_at=int(item["created_at"]["N"]),
        expires_at=int(item["expires_at"]["N"]),
        revoked=item["revoked"]["BOOL"],
    )
