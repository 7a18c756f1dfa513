"""Task store on DynamoDB (TasksTable): one item per task, TTL on `expires_at`, GSI `by_account` for listing.

A reply or result over `INLINE_LIMIT` (the two share the item, and DynamoDB
stops at 400 KB) goes to the staging bucket under `tasks/` and the item keeps its key;
a store without the bucket (the router's STAGING_BUCKET is optional) refuses it.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Protocol

import orjson

from mcp_platform.durable_tasks.model import TaskRecord, TaskStatus
from mcp_platform.durable_tasks.store import PayloadTooLargeError, decode_cursor, encode_cursor
from mcp_platform.storage import aws

if TYPE_CHECKING:
    from collections.abc import Callable

    from mypy_boto3_dynamodb import DynamoDBClient

INLINE_LIMIT = 190_000
"""Bytes of JSON kept in the item; larger replies and results go to the blob store. A concluded task's item
holds its reply and its result, so two payloads this large and the task's other attributes must fit in one
item (DynamoDB stops at 400 KB); a result is about twice its reply (structuredContent and its JSON as text)."""
BY_ACCOUNT = "by_account"
_UNREPLIED = "AND attribute_not_exists(reply) AND attribute_not_exists(reply_ref)"


class BlobStore(Protocol):
    def put(self, key: str, data: bytes) -> None: ...

    def get(self, key: str) -> bytes: ...


class S3Blobs:
    """Large task payloads in the staging bucket (its lifecycle rule deletes them within a day).

    `client` None means the container's shared S3 client, built on first use: few calls need the
    bucket, and building an S3 client costs a cold start about 35 ms.
    """

    def __init__(self, client: Any | None, bucket: str, prefix: str = "tasks/") -> None:
        self._client = client
        self._bucket = bucket
        self._prefix = prefix

    @property
    def _s3(self) -> Any:
        from mcp_platform.storage import aws  # imported with its first use, as the client is built then

        return self._client if self._client is not None else aws.client("s3")

    def put(self, key: str, data: bytes) -> None:
        self._s3.put_object(Bucket=self._bucket, Key=self._prefix + key, Body=data, ContentType="application/json")

    def get(self, key: str) -> bytes:
        body: bytes = self._s3.get_object(Bucket=self._bucket, Key=self._prefix + key)["Body"].read()
        return body


def build_task_store(table: str, bucket: str, ddb: Any = None, s3: Any = None) -> DynamoTaskStore:
    """The one way to build the deployment's task store (router, worker, sweep, `mcp-admin`).

    With `bucket` (the staging bucket) replies over `INLINE_LIMIT` are kept and read there: a store built
    without it finds them missing, and would fail and refund tasks that did reply. Clients default to the
    container's shared ones.
    """
    blobs = S3Blobs(s3, bucket) if bucket else None  # None: the shared S3 client, built on first use
    return DynamoTaskStore(ddb or aws.client("dynamodb"), table, blobs)


class DynamoTaskStore:
    def __init__(
        self,
        client: DynamoDBClient,
        table: str,
        blobs: BlobStore | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._ddb = client
        self._table = table
        self._blobs = blobs
        self._now = clock

    def create(self, task: TaskRecord) -> None:
        item: dict[str, Any] = {
            "task_id": {"S": task.task_id},
            "account_id": {"S": task.account_id},
            "tool": {"S": task.tool},
            "service": {"S": task.service},
            "status": {"S": str(task.status)},
            "created_at": {"N": repr(task.created_at)},
            "updated_at": {"N": repr(task.updated_at)},
            "ttl_ms": {"N": str(task.ttl_ms)},
            "deadline": {"N": repr(task.deadline)},
            "expires_at": {"N": str(task.expires_at)},
            "poll_ms": {"N": str(task.poll_interval_ms)},
            "status_message": {"S": task.status_message},
            "request_id": {"S": task.request_id},
        }
        if task.charge is not None:
            item["charge"] = {"S": orjson.dumps(task.charge).decode()}
        self._ddb.put_item(TableName=self._table, Item=item, ConditionExpression="attribute_not_exists(task_id)")

    def get(self, task_id: str) -> TaskRecord | None:
        item = self._ddb.get_item(TableName=self._table, Key={"task_id": {"S": task_id}}, ConsistentRead=True).get(
            "Item"
        )
        return self._record(item) if item else None

    def list(self, account_id: str, limit: int, cursor: str | None = None) -> tuple[list[TaskRecord], str | None]:
        query: dict[str, Any] = {
            "TableName": self._table,
            "IndexName": BY_ACCOUNT,
            "KeyConditionExpression": "account_id = :a",
            "ExpressionAttributeValues": {":a": {"S": account_id}},
            "ScanIndexForward": False,
            "Limit": limit,
        }
        if cursor:
            position = decode_cursor(cursor, account_id)
            query["ExclusiveStartKey"] = {
                "task_id": {"S": position["task_id"]},
                "account_id": {"S": account_id},
                "created_at": {"N": repr(position["created_at"])},
            }
        page = self._ddb.query(**query)
        records = [r for item in page["Items"] if (r := self._record(item)) is not None]
        last = page.get("LastEvaluatedKey")
        next_cursor = None
        if last:
            next_cursor = encode_cursor(
                {
                    "account_id": account_id,
                    "created_at": float(last["created_at"]["N"]),
                    "task_id": last["task_id"]["S"],
                }
            )
        return records, next_cursor

    def begin(self, task_id: str, message: str, ends_by: float) -> bool:
        values = {":m": {"S": message}, ":end": {"N": repr(ends_by)}}
        return self._update_working(task_id, "SET status_message = :m", values, "AND deadline >= :end") is not None

    def put_reply(self, task_id: str, reply: dict[str, Any]) -> bool:
        name, value = self._payload(task_id, "reply", reply)
        return (
            self._update_working(
                task_id,
                "SET #r = :r",
                {":r": value},
                _UNREPLIED,
                {"#r": name},
            )
            is not None
        )

    def finish(
        self, task_id: str, status: TaskStatus, result: dict[str, Any] | None, message: str, *, unreplied: bool = False
    ) -> TaskRecord | None:
        values: dict[str, Any] = {":s": {"S": str(status)}, ":m": {"S": message}}
        names: dict[str, str] = {}
        expression = "SET #s = :s, status_message = :m"
        if result is not None:
            names["#res"], values[":res"] = self._payload(task_id, "result", result)
            expression += ", #res = :res"
        condition = _UNREPLIED if unreplied else ""
        item = self._update_working(task_id, expression, values, condition, names=names)
        return self._record(item) if item else None

    # -- helpers

    def _update_working(
        self,
        task_id: str,
        expression: str,
        values: dict[str, Any],
        extra_condition: str = "",
        names: dict[str, str] | None = None,
    ) -> dict[str, Any] | None:
        try:
            response = self._ddb.update_item(
                TableName=self._table,
                Key={"task_id": {"S": task_id}},
                UpdateExpression=f"{expression}, updated_at = :now",
                ConditionExpression=f"#s = :working {extra_condition}".strip(),
                ExpressionAttributeNames={"#s": "status", **(names or {})},
                ExpressionAttributeValues={
                    **values,
                    ":working": {"S": str(TaskStatus.WORKING)},
                    ":now": {"N": repr(self._now())},
                },
                ReturnValues="ALL_NEW",
            )
        except self._ddb.exceptions.ConditionalCheckFailedException:
            return None
        attributes: dict[str, Any] = response["Attributes"]
        return attributes

    def _payload(self, task_id: str, name: str, value: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """(attribute name, attribute value): inline JSON, or a blob key for a large payload."""
        blob = orjson.dumps(value)
        if len(blob) <= INLINE_LIMIT:
            return name, {"S": blob.decode()}
        if self._blobs is None:
            raise PayloadTooLargeError(len(blob), INLINE_LIMIT)
        key = f"{task_id}/{name}.json"
        self._blobs.put(key, blob)
        return f"{name}_ref", {"S": key}

    def _load(self, item: dict[str, Any], name: str) -> dict[str, Any] | None:
        if name in item:
            loaded: dict[str, Any] = orjson.loads(item[name]["S"])
            return loaded
        if f"{name}_ref" in item and self._blobs is not None:
            loaded = orjson.loads(self._blobs.get(item[f"{name}_ref"]["S"]))
            return loaded
        return None

    def _record(self, item: dict[str, Any]) -> TaskRecord | None:
        if int(item["expires_at"]["N"]) <= self._now():
            return None  # TTL deletion is lazy: an expired task is gone
        return TaskRecord(
            task_id=item["task_id"]["S"],
            account_id=item["account_id"]["S"],
            tool=item["tool"]["S"],
            service=item["service"]["S"],
            status=TaskStatus(item["status"]["S"]),
            created_at=float(item["created_at"]["N"]),
            updated_at=float(item["updated_at"]["N"]),
            ttl_ms=int(item["ttl_ms"]["N"]),
            deadline=float(item["deadline"]["N"]),
            charge=orjson.loads(item["charge"]["S"]) if "charge" in item else None,
            status_message=item.get("status_message", {}).get("S", ""),
            poll_interval_ms=int(item["poll_ms"]["N"]),
            reply=self._load(item, "reply"),
            result=self._load(item, "result"),
            request_id=item.get("request_id", {}).get("S", ""),
        )
