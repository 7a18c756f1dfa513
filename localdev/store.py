"""Create the template's tables, buckets and sender identity on the current endpoint (moto here, never AWS)."""

from __future__ import annotations

import copy
import threading
from types import SimpleNamespace
from typing import Any

from botocore.client import BaseClient

from localdev import moto_expressions, template
from mcp_platform.storage import aws


def create_buckets(client: Any = None) -> list[str]:
    """Create the template's S3 buckets, named by `template.local_bucket_name`."""
    s3 = client or aws.configured_client("s3")
    names = [template.local_bucket_name(logical_id) for logical_id in template.buckets()]
    for name in names:
        s3.create_bucket(Bucket=name)
    return names


def create_sender_identity(address: str, client: Any = None) -> None:
    """Verify the address email_send sends from (in AWS the operator verifies it in SES)."""
    if address:
        (client or aws.configured_client("sesv2")).create_email_identity(EmailIdentity=address)


def create_tables(client: Any = None) -> list[str]:
    """Create every `AWS::DynamoDB::Table` of the template, named by its logical id.

    Key schema, indexes and TTL come from the template itself, so the local
    store cannot drift from what is deployed.
    """
    ddb = client or aws.configured_client("dynamodb")
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


def moto_as_dynamodb() -> None:
    """Give moto, in this process, the guarantees and the cost profile of DynamoDB that the platform relies on."""
    _serialize_aws_requests()
    _snapshot_transactions()
    moto_expressions.at_dynamodb_cost()


def _serialize_aws_requests() -> None:
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


def _snapshot_transactions() -> None:
    """Roll a failed TransactWriteItems back from copies of the items it names, not of whole tables.

    moto deep-copies every table a transaction names before it starts, so that it can put the tables
    back if the transaction fails. Each billed call runs transactions on the accounts, ledger and calls
    tables, which grow with every call: `make dev` spent 180 ms a call after a few hundred calls and
    2.4 s after two thousand, and timed out. Only the named items can change, so copies of those are
    enough: the tables are no longer copied, and a failed transaction writes its items back (or deletes
    the ones it created) before the error goes out. Local and test use only.
    """
    from moto.dynamodb import models
    from moto.dynamodb.models import DynamoDBBackend
    from moto.dynamodb.models.table import Table

    transact = DynamoDBBackend.transact_write_items
    if getattr(transact, "_snapshots", False):
        return

    def deepcopy(value: Any, memo: dict[int, Any] | None = None) -> Any:
        return value if isinstance(value, Table) else copy.deepcopy(value, memo)

    def named_items(backend: DynamoDBBackend, items: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
        named = []
        for entry in items:
            for op in entry.values():
                table = backend.tables.get(op.get("TableName", ""))
                if table is None:
                    continue
                key = op.get("Key")
                if key is None and "Item" in op:
                    attrs = (table.hash_key_attr, table.range_key_attr)
                    key = {name: op["Item"][name] for name in attrs if name is not None and name in op["Item"]}
                if key:
                    named.append((table.name, key))
        return named

    def transact_write_items(self: DynamoDBBackend, transact_items: list[dict[str, Any]]) -> None:
        before = []
        for table_name, key in named_items(self, transact_items):
            try:
                item = self.get_item(table_name, key)
            except Exception:  # a malformed key: moto refuses that operation, and what ran before it is put back
                continue
            before.append((table_name, key, None if item is None else copy.deepcopy(item.to_json()["Attributes"])))
        try:
            transact(self, transact_items)
        except Exception:
            for table_name, key, attributes in reversed(before):
                if attributes is None:
                    self.delete_item(table_name, key)
                else:
                    self.put_item(table_name, attributes)
            raise

    models.copy = SimpleNamespace(deepcopy=deepcopy)  # type: ignore[attr-defined]
    transact_write_items._snapshots = True  # type: ignore[attr-defined]
    DynamoDBBackend.transact_write_items = transact_write_items  # type: ignore[method-assign]
