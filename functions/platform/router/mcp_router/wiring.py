"""Build the router's dependencies from its settings (AWS, or the local default's moto)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from mcp_platform.auth.accounts import AccountAdmin, SignupDesk
from mcp_platform.auth.dynamodb import DynamoAccountStore, DynamoSignupStore
from mcp_platform.billing.dynamodb import build_ledger
from mcp_platform.billing.usage import DynamoLedgerHistory
from mcp_platform.catalogue.artefact import load_catalogue
from mcp_platform.durable_tasks.dynamodb import build_task_store
from mcp_platform.oauth.dynamodb import DynamoGrantStore
from mcp_platform.ratelimit.limiter import DynamoRateLimiter
from mcp_platform.storage.aws import client
from mcp_platform.web.addresses import AddressPolicy, apply_policy
from mcp_router.auth import KeyAuthenticator
from mcp_router.dependencies import Dependencies
from mcp_router.invoker import Invoker, LambdaInvoker, invoke_client
from mcp_router.settings import RouterSettings

if TYPE_CHECKING:
    from collections.abc import Mapping


def dependencies_from_env(invoker: Invoker | None = None, env: Mapping[str, str] | None = None) -> Dependencies:
    """DynamoDB stores named by the router's settings; services invoked through Lambda unless `invoker` is given.

    The settings are `RouterSettings.from_env(env)` (None: the process environment), which refuses an
    environment missing any of the router's template variables.
    """
    settings = RouterSettings.from_env(env)
    apply_policy(AddressPolicy.of(settings))  # the router validates caller URLs in tool arguments
    ddb = client("dynamodb")
    counters = client("dynamodb", once=True)  # a rate counter's `ADD` sent twice counts twice: never retried
    store = DynamoAccountStore(ddb, settings.accounts_table, settings.api_keys_table)
    if invoker is None:
        default = invoke_client(math.floor(settings.service_timeout_seconds) + 1)
        invoker = LambdaInvoker.of(default, settings, invoke_client)
    registry = load_catalogue()
    ledger = build_ledger(settings, ddb)
    signups = SignupDesk(
        admin=AccountAdmin(store, ledger),
        signups=DynamoSignupStore(ddb, settings.accounts_table, settings.signups_table),
        mode=settings.signup_mode,
        services=frozenset(registry.services),
        welcome_credits=settings.welcome_credits,
    )
    task_store = build_task_store(settings.tasks_table, settings.staging_bucket, ddb) if settings.tasks_table else None
    grants = DynamoGrantStore(ddb, settings.oauth_table) if settings.oauth_table else None
    return Dependencies(
        registry=registry,
        authenticator=KeyAuthenticator(store, settings.key_cache_seconds, grants=grants),
        ledger=ledger,
        limiter=DynamoRateLimiter(counters, settings.rate_limit_table),
        invoker=invoker,
        settings=settings,
        signups=signups,
        signup_limiter=DynamoRateLimiter(counters, settings.rate_limit_table, window_seconds=3600),
        history=DynamoLedgerHistory(ddb, settings.ledger_table),
        task_store=task_store,
    )
