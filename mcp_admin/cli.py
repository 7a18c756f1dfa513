"""`mcp-admin`: manage accounts, keys, approvals and credits, in AWS or in the local default.

Where the tables are:
  --stack NAME        a deployed stack (reads its outputs; AWS credentials from the usual places)
  --local             the running `make dev` store (moto on 127.0.0.1, tables named as in template.yaml)
  otherwise           ACCOUNTS_TABLE, API_KEYS_TABLE, LEDGER_TABLE, CALLS_TABLE from the environment

`reconcile` runs the scheduled sweep by hand and prints what it fixed.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from botocore.exceptions import EndpointConnectionError

from mcp_platform.auth.accounts import AccountAdmin, AdminError, SignupDesk
from mcp_platform.auth.dynamodb import DynamoAccountStore, DynamoSignupStore
from mcp_platform.auth.signup import SignupMode
from mcp_platform.auth.store import AccountExistsError
from mcp_platform.billing.dynamodb import build_ledger
from mcp_platform.billing.ledger import InsufficientCreditsError, UnknownAccountError
from mcp_platform.billing.lifecycle import CallBilling
from mcp_platform.billing.usage import (
    DynamoLedgerHistory,
    InvalidUsageQueryError,
    daily_totals,
    parse_since,
    read_all,
    service_of_tool,
)
from mcp_platform.catalogue.registry import load_registry
from mcp_platform.durable_tasks.dynamodb import DynamoTaskStore, build_task_store
from mcp_platform.durable_tasks.sweep import task_resolver
from mcp_platform.runtime.settings import LedgerSettings
from mcp_platform.storage import aws

LOCAL_AWS_PORT = int(os.environ.get("LOCAL_AWS_PORT", "4566"))
LOCAL_TABLES = {
    "accounts": "AccountsTable",
    "keys": "ApiKeysTable",
    "ledger": "LedgerTable",
    "calls": "CallsTable",
    "signups": "SignupsTable",
    "tasks": "TasksTable",
    "bucket": "stagingbucket",
}
"""What the local default names its tables and staging bucket (localdev names them by logical id)."""


def _services(value: str) -> frozenset[str]:
    known = set(load_registry().services)
    wanted = known if value == "all" else {s.strip() for s in value.split(",") if s.strip()}
    if unknown := wanted - known:
        raise AdminError(f"unknown services {sorted(unknown)}; known: {sorted(known)}")
    return frozenset(wanted)


@dataclass(frozen=True)
class _Stores:
    admin: AccountAdmin
    desk: SignupDesk
    history: DynamoLedgerHistory
    tasks: DynamoTaskStore | None


def _stores(args: argparse.Namespace) -> _Stores:
    """The stores of the deployment `args` name (a stack, the local default, or tables in the environment)."""
    s3 = None
    if args.local:
        local = {
            "endpoint_url": f"http://127.0.0.1:{LOCAL_AWS_PORT}",
            "region_name": "us-east-1",
            "aws_access_key_id": "local",
            "aws_secret_access_key": "local",
        }
        ddb = aws.configured_client("dynamodb", None, **local)
        s3 = aws.configured_client("s3", None, **local)
        tables = LOCAL_TABLES
    elif args.stack:
        ddb = aws.client("dynamodb")
        outputs = aws.client("cloudformation").describe_stacks(StackName=args.stack)["Stacks"][0]["Outputs"]
        by_key = {o["OutputKey"]: o["OutputValue"] for o in outputs}
        tables = {
            "accounts": by_key["AccountsTableName"],
            "keys": by_key["ApiKeysTableName"],
            "ledger": by_key["LedgerTableName"],
            "calls": by_key["CallsTableName"],
            "signups": by_key.get("SignupsTableName", ""),
            "tasks": by_key.get("TasksTableName", ""),
            "bucket": by_key.get("StagingBucketName", ""),
        }
    else:
        ddb = aws.client("dynamodb")
        env = os.environ
        tables = {
            "accounts": env["ACCOUNTS_TABLE"],
            "keys": env["API_KEYS_TABLE"],
            "ledger": env["LEDGER_TABLE"],
            "calls": env["CALLS_TABLE"],
            "signups": env.get("SIGNUPS_TABLE", ""),
            "tasks": env.get("TASKS_TABLE", ""),
            "bucket": env.get("STAGING_BUCKET", ""),
        }
    store = DynamoAccountStore(ddb, tables["accounts"], tables["keys"])
    admin = AccountAdmin(
        store,
        build_ledger(
            LedgerSettings(
                accounts_table=tables["accounts"], ledger_table=tables["ledger"], calls_table=tables["calls"]
            ),
            ddb,
        ),
    )
    signups = DynamoSignupStore(ddb, tables["accounts"], tables["signups"])
    # Invites are issued whatever the deployment's mode; the router decides whether they are needed.
    desk = SignupDesk(admin, signups, SignupMode.INVITE, frozenset(), 0)
    tasks = build_task_store(tables["tasks"], tables["bucket"], ddb, s3) if tables.get("tasks") else None
    return _Stores(admin, desk, DynamoLedgerHistory(ddb, tables["ledger"]), tasks)


_CSV_COLUMNS = (
    "created_at",
    "entry_id",
    "kind",
    "service",
    "tool",
    "amount",
    "balance_after",
    "request_id",
    "call_id",
    "reason",
)
_TOTAL_COLUMNS = ("day", "service", "calls", "charged", "refunded", "net", "granted")


def _usage(stores: _Stores, args: argparse.Namespace) -> Any:
    """Every ledger entry since --since (newest first) and per-service totals by day."""
    admin = stores.admin
    admin.account(args.account_id)  # refuses an unknown account
    registry = load_registry()
    service_of = service_of_tool(lambda tool: spec.service if (spec := registry.get(tool)) else None)
    since = parse_since(args.since) if args.since else None
    balance = admin.ledger.balance(args.account_id)
    rows = list(read_all(stores.history, args.account_id, balance, service_of, since))
    totals = daily_totals(rows)
    if args.format == "json":
        return {
            "account_id": args.account_id,
            "balance": balance,
            "since": since,
            "entries": rows,
            "totals_by_day": totals,
        }
    out = io.StringIO()
    columns = _TOTAL_COLUMNS if args.totals else _CSV_COLUMNS
    writer = csv.DictWriter(out, fieldnames=columns, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    writer.writerows(totals if args.totals else rows)
    return _Text(out.getvalue())


class _Text(str):
    """Output printed as it is (CSV), not as JSON."""


def _run(args: argparse.Namespace) -> Any:
    stores = _stores(args)
    admin, desk = stores.admin, stores.desk
    if args.command == "usage":
        return _usage(stores, args)
    if args.command == "reconcile":
        ledger: Any = admin.ledger
        # As the scheduled sweep: a task's overdue call is decided by its task (failed + refunded, or settled).
        resolver = task_resolver(stores.tasks) if stores.tasks is not None else None
        report = CallBilling(ledger).sweep(resolver).to_wire()
        if args.audit:
            report["audit"] = ledger.audit(args.audit).to_wire()
        return report
    if args.command == "invite":
        if args.action == "create":
            code, invite = desk.issue_invite(args.uses, None if args.days == 0 else args.days, args.note)
            expires = datetime.fromtimestamp(invite.expires_at, UTC).isoformat() if invite.expires_at else None
            return {
                "invite_code": code,
                "invite_id": invite.invite_id,
                "uses": invite.uses,
                "expires_at": expires,
                "note": "shown once; only its hash is stored. Revoke with `mcp-admin invite revoke CODE_OR_ID`.",
            }
        desk.revoke_invite(args.code)
        return {"revoked": True}
    if args.command == "create-account":
        account = admin.create_account(args.name, _services(args.services), args.credits, args.account_id)
        return admin.show(account.account_id)
    if args.command == "issue-key":
        key = admin.issue_key(args.account_id, profile=args.profile)
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
    k.add_argument("--profile", help="default connection profile, as in the URL: profile=discover, services=geo,fetch")
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
    i = sub.add_parser("invite", help="invite codes for self-service sign-up (SignupMode invite)")
    iv = i.add_subparsers(dest="action", required=True)
    ic = iv.add_parser("create", help="issue an invite code (printed once)")
    ic.add_argument("--uses", type=int, default=1, help="sign-ups it admits (default 1)")
    ic.add_argument("--days", type=float, default=7.0, help="valid for this many days (0: no expiry; default 7)")
    ic.add_argument("--note", default="", help="who it is for (stored with it)")
    ir = iv.add_parser("revoke", help="revoke an invite, given the code or its invite_id")
    ir.add_argument("code")
    u = sub.add_parser("usage", help="every grant, charge and refund (newest first) and per-service totals by day")
    u.add_argument("account_id")
    u.add_argument("--since", help="from this date (YYYY-MM-DD, UTC) or ISO date-time; default: everything")
    u.add_argument("--format", choices=("json", "csv"), default="json")
    u.add_argument("--totals", action="store_true", help="with --format csv: the per-service daily totals instead")
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
    except (
        AdminError,
        AccountExistsError,
        InvalidUsageQueryError,
        InsufficientCreditsError,
        UnknownAccountError,
    ) as exc:
        print(f"mcp-admin: {exc}", file=sys.stderr)
        return 1
    except EndpointConnectionError as exc:
        hint = f" (is `make dev` running with LOCAL_AWS_PORT={LOCAL_AWS_PORT}?)" if args.local else ""
        print(f"mcp-admin: cannot reach {exc.kwargs.get('endpoint_url', 'the store')}{hint}", file=sys.stderr)
        return 1
    if isinstance(result, _Text):
        sys.stdout.write(result)
    else:
        print(json.dumps(result, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
