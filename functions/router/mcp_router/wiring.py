"""Build the router's dependencies from the environment (AWS, or the local default's moto)."""

from __future__ import annotations

import math
import os
from functools import cache
from typing import TYPE_CHECKING, Any

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

        @cache
        def lambda_client(read_timeout: int) -> Any:
            # No retries: a retried Invoke could run a tool twice. Each call's read timeout is what the
            # router has left (ToolCaller derives it from its deadline), at most the service's own + 1 s.
            config = Config(read_timeout=read_timeout, connect_timeout=2, retries={"max_attempts": 1})
            return configured_client("lambda", config)

        default = lambda_client(math.floor(settings.service_timeout_seconds) + 1)
        invoker = LambdaInvoker.from_env(default, env, lambda_client)
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
