"""Build the router's dependencies from the environment (AWS, or the local default's moto)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from botocore.config import Config

from mcp_platform.auth.dynamodb import DynamoAccountStore
from mcp_platform.aws import client, configured_client
from mcp_platform.billing.dynamodb import DynamoLedger
from mcp_platform.ratelimit.limiter import DynamoRateLimiter
from mcp_platform.registry import load_registry
from mcp_platform.tasks.dynamodb import DynamoTaskStore, S3Blobs
from mcp_router.auth import KeyAuthenticator
from mcp_router.gateway import Dependencies
from mcp_router.invoker import Invoker, LambdaInvoker
from mcp_router.settings import RouterSettings

if TYPE_CHECKING:
    from collections.abc import Mapping


def dependencies_from_env(invoker: Invoker | None = None, env: Mapping[str, str] = os.environ) -> Dependencies:
    """DynamoDB stores named by the template's env vars; services invoked through Lambda unless `invoker` is given."""
    settings = RouterSettings.from_env(env)
    ddb = client("dynamodb")
    store = DynamoAccountStore(ddb, env["ACCOUNTS_TABLE"], env["API_KEYS_TABLE"])
    if invoker is None:
        timeout = float(env.get("SERVICE_TIMEOUT_SECONDS", "25"))
        # No retries: a retried Invoke could run a tool twice. The read timeout outlives the service's own.
        config = Config(read_timeout=timeout + 2, connect_timeout=2, retries={"max_attempts": 1})
        lambda_client = configured_client("lambda", config)
        invoker = LambdaInvoker.from_env(lambda_client, env)
    bucket = env.get("STAGING_BUCKET")
    task_store = (
        DynamoTaskStore(ddb, env["TASKS_TABLE"], S3Blobs(client("s3"), bucket) if bucket else None)
        if env.get("TASKS_TABLE")
        else None
    )
    return Dependencies(
        registry=load_registry(),
        authenticator=KeyAuthenticator(store, settings.key_cache_seconds),
        ledger=DynamoLedger(ddb, env["ACCOUNTS_TABLE"], env["LEDGER_TABLE"], env["CALLS_TABLE"]),
        limiter=DynamoRateLimiter(ddb, env["RATE_LIMIT_TABLE"]),
        invoker=invoker,
        settings=settings,
        task_store=task_store,
    )
