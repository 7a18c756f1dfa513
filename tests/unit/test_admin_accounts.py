"""AccountAdmin over the in-memory stores: what the CLI and the local seeding do."""

from __future__ import annotations

import pytest

from mcp_platform.auth.accounts import AccountAdmin, AdminError
from mcp_platform.auth.keys import hash_key, is_well_formed
from mcp_platform.auth.memory import MemoryAccountStore
from mcp_platform.auth.store import AccountExistsError
from mcp_platform.billing.ledger import InsufficientCreditsError
from mcp_platform.billing.memory import MemoryLedger


@pytest.fixture
def admin() -> AccountAdmin:
    store = MemoryAccountStore()
    return AccountAdmin(store, MemoryLedger(store))


def test_create_account_grants_welcome_credits_as_a_ledger_entry(admin: AccountAdmin) -> None:
    account = admin.create_account("Ada", frozenset({"hello"}), 100)
    assert account.account_id.startswith("acct_")
    shown = admin.show(account.account_id)
    assert shown["balance"] == 100
    assert [(e["kind"], e["amount"], e["reason"]) for e in shown["ledger"]] == [("grant", 100, "welcome credits")]
    assert shown["services"] == ["hello"]


def test_create_account_without_welcome_credits_writes_no_entry(admin: AccountAdmin) -> None:
    account = admin.create_account("Ada", frozenset(), 0, account_id="acct_x")
    assert admin.show(account.account_id)["ledger"] == []


def test_account_ids_are_unique(admin: AccountAdmin) -> None:
    admin.create_account("Ada", frozenset(), 0, account_id="acct_x")
    with pytest.raises(AccountExistsError):
        admin.create_account("Bob", frozenset(), 0, account_id="acct_x")


def test_issue_key_stores_only_the_hash(admin: AccountAdmin) -> None:
    admin.create_account("Ada", frozenset(), 0, account_id="acct_x")
    key = admin.issue_key("acct_x")
    assert is_well_formed(key)
    record = admin.store.get_key(hash_key(key))
    assert record is not None and record.account_id == "acct_x"
    [listed] = admin.show("acct_x")["keys"]
    assert listed["key_id"] == hash_key(key)
    assert key not in str(admin.show("acct_x"))
    assert listed["prefix"] == key[:8] + "…"


def test_issue_key_checks_the_account_and_a_chosen_keys_shape(admin: AccountAdmin) -> None:
    with pytest.raises(AdminError, match="no account"):
        admin.issue_key("acct_missing")
    admin.create_account("Ada", frozenset(), 0, account_id="acct_x")
    with pytest.raises(AdminError, match="43 URL-safe"):
        admin.issue_key("acct_x", "mcp_short")


def test_revoke_by_key_or_by_key_id(admin: AccountAdmin) -> None:
    admin.create_account("Ada", frozenset(), 0, account_id="acct_x")
    first, second = admin.issue_key("acct_x"), admin.issue_key("acct_x")
    admin.revoke_key(first)
    admin.revoke_key(hash_key(second))
    assert all(k["revoked"] for k in admin.show("acct_x")["keys"])
    with pytest.raises(AdminError, match="no such key"):
        admin.revoke_key("0" * 64)


def test_approve_and_unapprove_services(admin: AccountAdmin) -> None:
    admin.create_account("Ada", frozenset({"hello"}), 0, account_id="acct_x")
    assert admin.approve("acct_x", frozenset({"fetch", "search"})) == {"hello", "fetch", "search"}
    assert admin.approve("acct_x", frozenset({"hello"}), revoke=True) == {"fetch", "search"}
    assert admin.show("acct_x")["services"] == ["fetch", "search"]


def test_grant_and_take_back_never_below_zero(admin: AccountAdmin) -> None:
    admin.create_account("Ada", frozenset(), 10, account_id="acct_x")
    assert admin.grant("acct_x", 5, "bonus") == 15
    assert admin.grant("acct_x", -15, "clawback") == 0
    with pytest.raises(InsufficientCreditsError):
        admin.grant("acct_x", -1, "too much")
    shown = admin.show("acct_x")
    assert shown["balance"] == 0
    assert sum(e["amount"] for e in shown["ledger"]) == 0
    with pytest.raises(AdminError):
        admin.grant("acct_missing", 5, "x")
