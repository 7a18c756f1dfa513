"""Create the template's DynamoDB tables on the current endpoint (moto here, never AWS)."""

from __future__ import annotations

from typing import Any

import boto3

from localdev import template


def create_buckets(client: Any = None) -> list[str]:
    """Create the template's S3 buckets, named by `template.local_bucket_name`."""
    s3 = client or boto3.client("s3")
    names = [template.local_bucket_name(logical_id) for logical_id in template.buckets()]
    for name in names:
        s3.create_bucket(Bucket=name)
    return names


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
