"""`mcp-admin` against moto, tables from the environment (and `--local` against a loopback moto server)."""

from __future__ import annotations

import json
import socket
from typing import TYPE_CHECKING, Any

import boto3
import pytest

from mcp_admin import cli as admin_cli
from mcp_platform.auth.keys import hash_key, is_well_formed
from mcp_platform.catalogue.registry import load_registry
from tests.support.dynamo import TABLE_ENV

if TYPE_CHECKING:
    from collections.abc import Iterator


@pytest.fixture
def cli(aws: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Any:
    for name, value in TABLE_ENV.items():
        monkeypatch.setenv(name, value)

    def run(*argv: str, ok: bool = True) -> Any:
        code = admin_cli.main(list(argv))
        out, err = capsys.readouterr()
        assert code == (0 if ok else 1), (out, err)
        return json.loads(out) if ok else err

    return run


def test_create_account_grants_welcome_credits_as_a_ledger_entry(cli: Any) -> None:
    shown = cli("create-account", "--name", "Ada", "--account-id", "acct_ada", "--credits", "100")
    assert shown["account_id"] == "acct_ada" and shown["name"] == "Ada"
    assert shown["balance"] == 100
    assert shown["services"] == load_registry().services
    assert [(e["kind"], e["amount"], e["reason"]) for e in shown["ledger"]] == [("grant", 100, "welcome credits")]
    assert shown["keys"] == []


def test_create_account_default_credits_come_from_welcome_credits(cli: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WELCOME_CREDITS", "7")
    assert cli("create-account", "--name", "Bob", "--services", "hello")["balance"] == 7


def test_create_account_twice_and_unknown_services_fail(cli: Any) -> None:
    cli("create-account", "--name", "Ada", "--account-id", "acct_ada")
    assert "acct_ada" in cli("create-account", "--name", "Ada", "--account-id", "acct_ada", ok=False)
    assert "unknown services" in cli("create-account", "--name", "X", "--services", "nope", ok=False)


def test_issue_key_prints_it_once_and_stores_only_its_hash(cli: Any) -> None:
    cli("create-account", "--name", "Ada", "--account-id", "acct_ada")
    issued = cli("issue-key", "acct_ada")
    key = issued["api_key"]
    assert is_well_formed(key)
    shown = cli("show", "acct_ada")
    assert key not in json.dumps(shown)
    [listed] = shown["keys"]
    assert listed["key_id"] == hash_key(key) and listed["revoked"] is False
    keys_table = boto3.client("dynamodb").scan(TableName=TABLE_ENV["API_KEYS_TABLE"])["Items"]
    assert key not in str(keys_table)
    assert "no account" in cli("issue-key", "acct_missing", ok=False)


def test_revoke_key_by_key_or_key_id(cli: Any) -> None:
    cli("create-account", "--name", "Ada", "--account-id", "acct_ada")
    first = cli("issue-key", "acct_ada")["api_key"]
    second = cli("issue-key", "acct_ada")["api_key"]
    assert cli("revoke-key", first)["revoked"] is True
    assert cli("revoke-key", hash_key(second))["revoked"] is True
    assert all(k["revoked"] for k in cli("show", "acct_ada")["keys"])
    assert "no such key" in cli("revoke-key", "mcp_" + "A" * 43, ok=False)


def test_approve_and_revoke_services(cli: Any) -> None:
    cli("create-account", "--name", "Ada", "--account-id", "acct_ada", "--services", "hello")
    assert cli("approve", "acct_ada", "hello", "--revoke")["services"] == []
    assert cli("approve", "acct_ada", "all")["services"] == load_registry().services
    assert cli("show", "acct_ada")["services"] == load_registry().services
    assert "unknown services" in cli("approve", "acct_ada", "nope", ok=False)


def test_grant_and_take_back_never_below_zero(cli: Any) -> None:
    cli("create-account", "--name", "Ada", "--account-id", "acct_ada", "--credits", "10")
    assert cli("grant", "acct_ada", "5", "--reason", "bonus") == {"account_id": "acct_ada", "balance": 15}
    assert cli("grant", "acct_ada", "-15")["balance"] == 0
    assert "insufficient credits" in cli("grant", "acct_ada", "-1", ok=False)
    shown = cli("show", "acct_ada", "--entries", "2")
    assert [(e["kind"], e["amount"]) for e in shown["ledger"]] == [("grant", -15), ("grant", 5)]
    assert shown["ledger"][1]["reason"] == "bonus"
    assert "no account" in cli("grant", "acct_missing", "5", ok=False)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def local_store(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A moto server on loopback, as `make dev` runs it, with the template's tables."""
    from moto.server import ThreadedMotoServer

    from localdev.store import create_tables

    port = _free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        monkeypatch.setattr(admin_cli, "LOCAL_AWS_PORT", port)
        create_tables(
            boto3.client(
                "dynamodb",
                endpoint_url=f"http://127.0.0.1:{port}",
                region_name="us-east-1",
                aws_access_key_id="local",
                aws_secret_access_key="local",
            )
        )
        yield
    finally:
        server.stop()


def test_local_mode_talks_to_the_loopback_store(local_store: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        admin_cli.main(["--local", "create-account", "--name", "Dev", "--account-id", "acct_dev", "--credits", "3"])
        == 0
    )
    capsys.readouterr()
    assert admin_cli.main(["--local", "show", "acct_dev"]) == 0
    assert json.loads(capsys.readouterr().out)["balance"] == 3


def _usage_account(cli: Any) -> None:
    cli("create-account", "--name", "Ada", "--account-id", "acct_ada", "--credits", "50")
    cli("grant", "acct_ada", "-5", "--reason", "correction")


def test_usage_exports_every_entry_as_json_with_totals(cli: Any) -> None:
    _usage_account(cli)
    usage = cli("usage", "acct_ada")
    assert usage["balance"] == 45
    assert [(e["kind"], e["amount"], e["balance_after"]) for e in usage["entries"]] == [
        ("grant", -5, 45),
        ("grant", 50, 50),
    ]
    assert usage["totals_by_day"][0]["service"] == "(grants)" and usage["totals_by_day"][0]["granted"] == 45


def test_usage_as_csv_and_totals_csv(cli: Any, capsys: pytest.CaptureFixture[str]) -> None:
    _usage_account(cli)
    assert admin_cli.main(["usage", "acct_ada", "--format", "csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "created_at,entry_id,kind,service,tool,amount,balance_after,request_id,call_id,reason"
    assert [line.split(",")[2] for line in lines[1:]] == ["grant", "grant"]
    assert lines[1].endswith(",-5,45,,,correction")
    assert admin_cli.main(["usage", "acct_ada", "--format", "csv", "--totals"]) == 0
    totals = capsys.readouterr().out.splitlines()
    assert totals[0] == "day,service,calls,charged,refunded,net,granted" and totals[1].endswith(",(grants),0,0,0,0,45")


def test_usage_since_and_its_errors(cli: Any) -> None:
    _usage_account(cli)
    assert cli("usage", "acct_ada", "--since", "2999-01-01")["entries"] == []
    assert "since" in cli("usage", "acct_ada", "--since", "last week", ok=False)
    assert "no account" in cli("usage", "acct_nobody", ok=False)
