"""Build the router's dependencies from the environment (AWS, or the local default's moto)."""

from __future__ import annotations

import math
import os
from functools import cache
from typing import TYPE_CHECKING, Any

from botocore.config import Config

from mcp_platform.admin import AccountAdmin, SignupDesk
from mcp_platform.auth.dynamodb import DynamoAccountStore, DynamoSignupStore
from mcp_platform.aws import client, configured_client
from mcp_platform.billing.dynamodb import DynamoLedger
from mcp_platform.billing.usage import DynamoLedgerHistory
from mcp_platform.catalogue import load_catalogue
from mcp_platform.ratelimit.limiter import DynamoRateLimiter
from mcp_platform.tasks.dynamodb import DynamoTaskStore, S3Blobs
from mcp_router.auth import KeyAuthenticator
from mcp_router.gateway import Dependencies
from mcp_router.invoker import Invoker, LambdaInvoker
from mcp_router.settings import RouterSettings

if TYPE_CHECKING:
    from collections.abc import Mapping


def dependencies_from_env(invoker: Invoker | None = None, env: Mapping[str, str] = os.environ) -> Dependencies:
    """DynamoDB stores named by the router's settings; services invoked through Lambda unless `invoker` is given.

    `RouterSettings.from_env` refuses an environment missing any of the router's template variables.
    """
    settings = RouterSettings.from_env(env)
    ddb = client("dynamodb")
    store = DynamoAccountStore(ddb, settings.accounts_table, settings.api_keys_table)
    if invoker is None:

        @cache
        def lambda_client(read_timeout: int) -> Any:
            # No retries: a retried Invoke could run a tool twice. Each call's read timeout is what the
            # router has left (ToolCaller derives it from its deadline), at most the service's own + 1 s.
            config = Config(read_timeout=read_timeout, connect_timeout=2, retries={"max_attempts": 1})
            return configured_client("lambda", config)

        default = lambda_client(math.floor(settings.service_timeout_seconds) + 1)
        invoker = LambdaInvoker.from_env(default, env, lambda_client)
    registry = load_catalogue()
    ledger = DynamoLedger(ddb, settings.accounts_table, settings.ledger_table, settings.calls_table)
    signups = SignupDesk(
        admin=AccountAdmin(store, ledger),
        signups=DynamoSignupStore(ddb, settings.accounts_table, settings.signups_table),
        mode=settings.signup_mode,
        services=frozenset(registry.services),
        welcome_credits=settings.welcome_credits,
    )
    blobs = S3Blobs(None, settings.staging_bucket) if settings.staging_bucket else None
    task_store = DynamoTaskStore(ddb, settings.tasks_table, blobs) if settings.tasks_table else None
    return Dependencies(
        registry=registry,
        authenticator=KeyAuthenticator(store, settings.key_cache_seconds),
        ledger=ledger,
        limiter=DynamoRateLimiter(ddb, settings.rate_limit_table),
        invoker=invoker,
        settings=settings,
        signups=signups,
        signup_limiter=DynamoRateLimiter(ddb, settings.rate_limit_table, window_seconds=3600),
        history=DynamoLedgerHistory(ddb, settings.ledger_table),
        task_store=task_store,
    )
