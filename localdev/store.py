"""Create the template's tables, buckets and sender identity on the current endpoint (moto here, never AWS)."""

from __future__ import annotations

import threading
from typing import Any

import boto3
from botocore.client import BaseClient

from localdev import template


def create_buckets(client: Any = None) -> list[str]:
    """Create the template's S3 buckets, named by `template.local_bucket_name`."""
    s3 = client or boto3.client("s3")
    names = [template.local_bucket_name(logical_id) for logical_id in template.buckets()]
    for name in names:
        s3.create_bucket(Bucket=name)
    return names


def create_sender_identity(address: str, client: Any = None) -> None:
    """Verify the address email_send sends from (in AWS the operator verifies it in SES)."""
    if address:
        (client or boto3.client("sesv2")).create_email_identity(EmailIdentity=address)


def create_tables(client: Any = None) -> list[str]:
    """Create every `AWS::DynamoDB::Table` of the template, named by its logical id.

    Key schema, indexes and TTL come from the template itself, so the local
    store cannot drift from what is deployed.
    """
    ddb = client or boto3.client("dynamodb")
    existing = set(ddb.list_tables()["TableNames"])
    created = []
    for name, props in template.tables().items():
        if name in existing:
            continue
        kwargs: dict[str, Any] = {
            "TableName": name,
            "BillingMode": "PAY_PER_REQUEST",
            "AttributeDefinitions": props["AttributeDefinitions"],
            "KeySchema": props["KeySchema"],
        }
        if gsis := props.get("GlobalSecondaryIndexes"):
            kwargs["GlobalSecondaryIndexes"] = gsis
        ddb.create_table(**kwargs)
        if ttl := props.get("TimeToLiveSpecification"):
            ddb.update_time_to_live(TableName=name, TimeToLiveSpecification=ttl)
        created.append(name)
    return created


def serialize_aws_requests() -> None:
    """Make every AWS request of this process atomic with respect to the others.

    DynamoDB executes each request atomically (a transaction is all or nothing
    and isolated); moto's in-memory backend does not when threads call it at
    once, and concurrent charges could then lose a ledger entry. One lock per
    request gives moto exactly DynamoDB's guarantee and no more: requests from
    different threads still interleave freely. Local and test use only.
    """
    if getattr(BaseClient._make_api_call, "_serialized", False):
        return
    lock = threading.RLock()
    make_api_call = BaseClient._make_api_call

    def atomic(self: BaseClient, operation: str, params: dict[str, Any]) -> Any:
        with lock:
            return make_api_call(self, operation, params)

    atomic._serialized = True  # type: ignore[attr-defined]
    BaseClient._make_api_call = atomic  # type: ignore[method-assign]
