"""`mcp-admin`: manage accounts, keys, approvals and credits, in AWS or in the local default.

Where the tables are:
  --stack NAME        a deployed stack (reads its outputs; AWS credentials from the usual places)
  --local             the running `make dev` store (moto on 127.0.0.1, tables named as in template.yaml)
  otherwise           ACCOUNTS_TABLE, API_KEYS_TABLE, LEDGER_TABLE, CALLS_TABLE from the environment

`reconcile` runs the scheduled sweep by hand and prints what it fixed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

import boto3
from botocore.exceptions import EndpointConnectionError

from mcp_platform.admin import AccountAdmin, AdminError
from mcp_platform.auth.dynamodb import DynamoAccountStore
from mcp_platform.auth.store import AccountExistsError
from mcp_platform.billing.dynamodb import DynamoLedger
from mcp_platform.billing.ledger import InsufficientCreditsError, UnknownAccountError
from mcp_platform.billing.lifecycle import Calls
from mcp_platform.registry import load_registry
from mcp_platform.tasks.dynamodb import DynamoTaskStore
from mcp_platform.tasks.sweep import task_resolver

LOCAL_AWS_PORT = int(os.environ.get("LOCAL_AWS_PORT", "4566"))
LOCAL_TABLES = {
    "accounts": "AccountsTable",
    "keys": "ApiKeysTable",
    "ledger": "LedgerTable",
    "calls": "CallsTable",
    "tasks": "TasksTable",
}


def _services(value: str) -> frozenset[str]:
    known = set(load_registry().services)
    wanted = known if value == "all" else {s.strip() for s in value.split(",") if s.strip()}
    if unknown := wanted - known:
        raise AdminError(f"unknown services {sorted(unknown)}; known: {sorted(known)}")
    return frozenset(wanted)


def _store(args: argparse.Namespace) -> tuple[Any, dict[str, str]]:
    """The DynamoDB client and the table names of the deployment `args` name."""
    if args.local:
        ddb = boto3.client(
            "dynamodb",
            endpoint_url=f"http://127.0.0.1:{LOCAL_AWS_PORT}",
            region_name="us-east-1",
            aws_access_key_id="local",
            aws_secret_access_key="local",
        )
        tables = LOCAL_TABLES
    elif args.stack:
        ddb = boto3.client("dynamodb")
        outputs = boto3.client("cloudformation").describe_stacks(StackName=args.stack)["Stacks"][0]["Outputs"]
        by_key = {o["OutputKey"]: o["OutputValue"] for o in outputs}
        tables = {
            "accounts": by_key["AccountsTableName"],
            "keys": by_key["ApiKeysTableName"],
            "ledger": by_key["LedgerTableName"],
            "calls": by_key["CallsTableName"],
            **({"tasks": by_key["TasksTableName"]} if "TasksTableName" in by_key else {}),
        }
    else:
        ddb = boto3.client("dynamodb")
        env = os.environ
        tables = {
            "accounts": env["ACCOUNTS_TABLE"],
            "keys": env["API_KEYS_TABLE"],
            "ledger": env["LEDGER_TABLE"],
            "calls": env["CALLS_TABLE"],
            **({"tasks": env["TASKS_TABLE"]} if env.get("TASKS_TABLE") else {}),
        }
    return ddb, tables


def _admin(ddb: Any, tables: dict[str, str]) -> AccountAdmin:
    return AccountAdmin(
        DynamoAccountStore(ddb, tables["accounts"], tables["keys"]),
        DynamoLedger(ddb, tables["accounts"], tables["ledger"], tables["calls"]),
    )


def _run(args: argparse.Namespace) -> Any:
    ddb, tables = _store(args)
    admin = _admin(ddb, tables)
    if args.command == "reconcile":
        ledger: Any = admin.ledger
        # As the scheduled sweep: a task's overdue call is decided by its task (failed + refunded, or settled).
        resolver = task_resolver(DynamoTaskStore(ddb, tables["tasks"])) if "tasks" in tables else None
        report = Calls(ledger).sweep(resolver).to_wire()
        if args.audit:
            report["audit"] = ledger.audit(args.audit).to_wire()
        return report
    if args.command == "create-account":
        account = admin.create_account(args.name, _services(args.services), args.credits, args.account_id)
        return admin.show(account.account_id)
    if args.command == "issue-key":
        key = admin.issue_key(args.account_id)
        return {"account_id": args.account_id, "api_key": key, "note": "shown once; only its hash is stored"}
    if args.command == "revoke-key":
        admin.revoke_key(args.key)
        return {"revoked": True, "note": "routers stop accepting it within their key cache time (≤ 60 s)"}
    if args.command == "approve":
        services = admin.approve(args.account_id, _services(args.services), revoke=args.revoke)
        return {"account_id": args.account_id, "services": sorted(services)}
    if args.command == "grant":
        return {"account_id": args.account_id, "balance": admin.grant(args.account_id, args.amount, args.reason)}
    return admin.show(args.account_id, args.entries)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="mcp-admin", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument("--stack", help="CloudFormation stack name of a deployment")
    where.add_argument("--local", action="store_true", help="the local default started by `make dev`")
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("create-account", help="create an account (with welcome credits)")
    c.add_argument("--name", required=True)
    c.add_argument("--services", default="all", help="comma-separated services, or 'all'")
    c.add_argument("--credits", type=int, default=int(os.environ.get("WELCOME_CREDITS", "100")))
    c.add_argument("--account-id", help="choose the id (default: generated)")
    k = sub.add_parser("issue-key", help="issue an API key (printed once)")
    k.add_argument("account_id")
    r = sub.add_parser("revoke-key", help="revoke a key, given the key or its key_id")
    r.add_argument("key")
    a = sub.add_parser("approve", help="approve (or --revoke) services for an account")
    a.add_argument("account_id")
    a.add_argument("services", help="comma-separated services, or 'all'")
    a.add_argument("--revoke", action="store_true")
    g = sub.add_parser("grant", help="grant credits (negative takes them back, never below zero)")
    g.add_argument("account_id")
    g.add_argument("amount", type=int)
    g.add_argument("--reason", default="manual grant")
    rc = sub.add_parser("reconcile", help="end billed calls left reserved past their deadline; print what was fixed")
    rc.add_argument("--audit", metavar="ACCOUNT", help="also check ACCOUNT's balance against its whole ledger")
    s = sub.add_parser("show", help="balance, keys and latest ledger entries")
    s.add_argument("account_id")
    s.add_argument("--entries", type=int, default=20)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        result = _run(args)
    except (AdminError, AccountExistsError, InsufficientCreditsError, UnknownAccountError) as exc:
        print(f"mcp-admin: {exc}", file=sys.stderr)
        return 1
    except EndpointConnectionError as exc:
        hint = f" (is `make dev` running with LOCAL_AWS_PORT={LOCAL_AWS_PORT}?)" if args.local else ""
        print(f"mcp-admin: cannot reach {exc.kwargs.get('endpoint_url', 'the store')}{hint}", file=sys.stderr)
        return 1
    print(json.dumps(result, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
