"""Build the authorization server from its settings (AWS, or the local default's moto)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcp_auth.app import auth_app
from mcp_auth.clients import ClientRegistry
from mcp_auth.email_codes import EmailCodes, LocalOutbox, SesOutbox
from mcp_auth.pending import PendingRequests
from mcp_auth.portal import AccountViews
from mcp_auth.settings import AuthSettings
from mcp_platform.auth.accounts import AccountAdmin, SignupDesk
from mcp_platform.auth.dynamodb import DynamoAccountStore, DynamoSignupStore
from mcp_platform.billing.dynamodb import build_ledger
from mcp_platform.billing.usage import DynamoLedgerHistory, service_of_tool
from mcp_platform.catalogue.registry import load_registry
from mcp_platform.oauth.dynamodb import DynamoGrantStore
from mcp_platform.oauth.scopes import all_scopes
from mcp_platform.ratelimit.limiter import DynamoRateLimiter
from mcp_platform.storage.aws import client, configured_client
from mcp_platform.web.addresses import AddressPolicy, apply_policy

if TYPE_CHECKING:
    from collections.abc import Mapping

    from starlette.applications import Starlette


def app_from_env(env: Mapping[str, str] | None = None) -> Starlette:
    """`app_from_settings` over `AuthSettings.from_env(env)` (None: the process environment)."""
    return app_from_settings(AuthSettings.from_env(env))


def app_from_settings(settings: AuthSettings) -> Starlette:
    """DynamoDB stores named by the settings; the scopes of every service in the registry; the portal's views."""
    apply_policy(AddressPolicy.of(settings))  # client metadata documents are fetched from caller-given URLs
    ddb = client("dynamodb")
    grants = DynamoGrantStore(ddb, settings.oauth_table)
    accounts = DynamoAccountStore(ddb, settings.accounts_table, settings.api_keys_table)
    ledger = build_ledger(settings, ddb)
    registry = load_registry()
    signups = DynamoSignupStore(ddb, settings.accounts_table, settings.signups_table)
    outbox = LocalOutbox() if settings.sign_in_outbox == "local" else None
    sender = outbox or SesOutbox(configured_client("sesv2"), settings.sign_in_email_from)
    admin = AccountAdmin(accounts, ledger)
    desk = SignupDesk(admin, signups, settings.signup_mode, frozenset(registry.services), settings.welcome_credits)
    views = AccountViews(
        admin=admin,
        ledger=ledger,
        history=DynamoLedgerHistory(ddb, settings.ledger_table),
        service_of=service_of_tool(lambda tool: spec.service if (spec := registry.get(tool)) else None),
        grants=grants,
        email_codes=EmailCodes(grants, signups.account_for_email, sender),
        signups=desk,
        signup_limiter=DynamoRateLimiter(ddb, settings.rate_limit_table, window_seconds=3600),
        signups_per_ip_per_hour=settings.signups_per_ip_per_hour,
        outbox=outbox,
    )
    clients = ClientRegistry(grants, all_scopes(registry.services))
    return auth_app(settings, registry.services, clients, grants, PendingRequests(grants), views)
