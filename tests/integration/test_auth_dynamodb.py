"""DynamoAccountStore and the key cache against moto."""

from __future__ import annotations

from typing import Any

import boto3
import pytest

from mcp_platform.auth.accounts import AccountAdmin
from mcp_platform.auth.dynamodb import DynamoAccountStore
from mcp_platform.auth.keys import hash_key
from mcp_platform.auth.store import Account, AccountExistsError
from mcp_platform.billing.dynamodb import DynamoLedger
from mcp_router.auth import KeyAuthenticator
from tests.support.clock import Clock
from tests.support.dynamo import TABLE_ENV, count_requests


@pytest.fixture
def ddb(aws: None) -> Any:
    return boto3.client("dynamodb")


@pytest.fixture
def store(ddb: Any) -> DynamoAccountStore:
    return DynamoAccountStore(ddb, TABLE_ENV["ACCOUNTS_TABLE"], TABLE_ENV["API_KEYS_TABLE"])


@pytest.fixture
def admin(ddb: Any, store: DynamoAccountStore) -> AccountAdmin:
    ledger = DynamoLedger(ddb, TABLE_ENV["ACCOUNTS_TABLE"], TABLE_ENV["LEDGER_TABLE"], TABLE_ENV["CALLS_TABLE"])
    admin = AccountAdmin(store, ledger)
    admin.create_account("Ada", frozenset({"hello", "fetch"}), 50, account_id="acct_a")
    return admin


def _scan_text(ddb: Any, table: str) -> str:
    return str(ddb.scan(TableName=table)["Items"])


def test_accounts_round_trip_and_ids_are_unique(store: DynamoAccountStore) -> None:
    store.create_account(Account("acct_r", "Rate", frozenset({"hello"}), rate_limit_per_minute=7))
    assert store.get_account("acct_r") == Account("acct_r", "Rate", frozenset({"hello"}), 7)
    store.create_account(Account("acct_empty", "Empty"))
    assert store.get_account("acct_empty") == Account("acct_empty", "Empty", frozenset(), None)
    assert store.get_account("acct_missing") is None
    with pytest.raises(AccountExistsError):
        store.create_account(Account("acct_r", "Again"))


def test_keys_are_stored_only_hashed(ddb: Any, admin: AccountAdmin, store: DynamoAccountStore) -> None:
    key = admin.issue_key("acct_a")
    stored = _scan_text(ddb, TABLE_ENV["API_KEYS_TABLE"]) + _scan_text(ddb, TABLE_ENV["ACCOUNTS_TABLE"])
    assert key not in stored
    assert key[4:] not in stored and key[8:] not in stored
    assert hash_key(key) in stored
    record = store.get_key(hash_key(key))
    assert record is not None
    assert (record.account_id, record.prefix, record.revoked) == ("acct_a", key[:8] + "…", False)


def test_revoke_marks_the_key_and_unknown_keys_are_reported(admin: AccountAdmin, store: DynamoAccountStore) -> None:
    key = admin.issue_key("acct_a")
    assert store.revoke_key(hash_key(key)) is True
    record = store.get_key(hash_key(key))
    assert record is not None and record.revoked
    assert store.revoke_key("0" * 64) is False
    assert store.get_key("0" * 64) is None


def test_keys_of_uses_the_account_index(ddb: Any, admin: AccountAdmin, store: DynamoAccountStore) -> None:
    admin.create_account("Bob", frozenset(), 0, account_id="acct_b")
    mine = [admin.issue_key("acct_a") for _ in range(3)]
    admin.issue_key("acct_b")
    with count_requests(ddb) as counter:
        records = store.keys_of("acct_a")
    assert dict(counter) == {"Query": 1}
    assert {r.key_hash for r in records} == {hash_key(k) for k in mine}
    assert [r.created_at for r in records] == sorted(r.created_at for r in records)


def test_set_services(admin: AccountAdmin, store: DynamoAccountStore) -> None:
    store.set_services("acct_a", frozenset({"search"}))
    assert store.get_account("acct_a").services == frozenset({"search"})  # type: ignore[union-attr]
    store.set_services("acct_a", frozenset())
    assert store.get_account("acct_a").services == frozenset()  # type: ignore[union-attr]
    with pytest.raises(Exception, match="ConditionalCheckFailed"):
        store.set_services("acct_missing", frozenset({"hello"}))


def test_the_balance_survives_set_services(admin: AccountAdmin, store: DynamoAccountStore) -> None:
    store.set_services("acct_a", frozenset({"hello"}))
    assert admin.ledger.balance("acct_a") == 50


def test_a_cached_key_costs_no_reads_and_revocation_lands_after_the_ttl(
    ddb: Any, admin: AccountAdmin, store: DynamoAccountStore
) -> None:
    key = admin.issue_key("acct_a")
    clock = Clock()
    auth = KeyAuthenticator(store, 60, clock)
    with count_requests(ddb) as first:
        principal = auth.authenticate(key)
    assert principal is not None and principal.account.services == frozenset({"hello", "fetch"})
    assert dict(first) == {"GetItem": 2}  # the key, then its account
    admin.revoke_key(key)
    with count_requests(ddb) as cached:
        clock.now += 59
        assert auth.authenticate(key) is not None
    assert sum(cached.values()) == 0
    clock.now += 1.5
    assert auth.authenticate(key) is None


def test_a_keys_default_profile_round_trips_to_the_principal(admin: AccountAdmin, store: DynamoAccountStore) -> None:
    account = admin.create_account("ada", frozenset({"geo", "fetch"}), 0)
    plain = admin.issue_key(account.account_id)
    narrowed = admin.issue_key(account.account_id, profile="services=geo&profile=discover")
    auth = KeyAuthenticator(store, 60)
    assert auth.authenticate(plain).profile is None
    assert auth.authenticate(narrowed).profile == "services=geo&profile=discover"
