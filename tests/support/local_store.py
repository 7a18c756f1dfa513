"""The running local default's store (moto server on loopback), seen as the admin CLI sees it.

End-to-end tests that check what landed in the store, or need an account of
their own so that no earlier test's ledger entries matter, use this.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import boto3

from mcp_platform.auth.accounts import AccountAdmin
from mcp_platform.auth.dynamodb import DynamoAccountStore
from mcp_platform.billing.dynamodb import DynamoLedger

# The local store names tables by their template logical ids (localdev.store.create_tables).
ACCOUNTS, KEYS, LEDGER, CALLS = "AccountsTable", "ApiKeysTable", "LedgerTable", "CallsTable"
ROOT = Path(__file__).resolve().parents[2]


def local_admin(endpoint: str) -> AccountAdmin:
    """An `AccountAdmin` over the DynamoDB tables at `endpoint` (http://127.0.0.1:PORT)."""
    ddb = boto3.client("dynamodb", endpoint_url=endpoint, region_name="us-east-1")
    return AccountAdmin(DynamoAccountStore(ddb, ACCOUNTS, KEYS), DynamoLedger(ddb, ACCOUNTS, LEDGER, CALLS))


def fresh_account(endpoint: str, services: frozenset[str], credits: int) -> tuple[str, str]:
    """A new account of its own (id, key) with `credits` granted once."""
    admin = local_admin(endpoint)
    account = admin.create_account("e2e", services, credits)
    return account.account_id, admin.issue_key(account.account_id)


def reconcile(endpoint: str, *options: str) -> dict[str, Any]:
    """`mcp-admin --local reconcile`: the scheduled sweep run by hand against the store; its JSON report."""
    run = subprocess.run(
        [sys.executable, "-m", "mcp_admin.cli", "--local", "reconcile", *options],
        capture_output=True,
        text=True,
        env={**os.environ, "LOCAL_AWS_PORT": endpoint.rsplit(":", 1)[1]},
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    report: dict[str, Any] = json.loads(run.stdout)
    return report
