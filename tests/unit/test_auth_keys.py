"""API key format, extraction from headers, and the authenticator's per-instance cache."""

from __future__ import annotations

import base64
import re

import pytest

from mcp_platform.auth.accounts import AccountAdmin
from mcp_platform.auth.keys import display_prefix, generate_key, hash_key, is_well_formed
from mcp_platform.auth.memory import MemoryAccountStore
from mcp_platform.auth.store import ApiKeyRecord
from mcp_platform.billing.memory import MemoryLedger
from mcp_router.auth import KeyAuthenticator, extract_key
from tests.support.clock import Clock


class CountingStore(MemoryAccountStore):
    def __init__(self) -> None:
        super().__init__()
        self.reads = 0

    def get_key(self, key_hash: str) -> ApiKeyRecord | None:
        self.reads += 1
        return super().get_key(key_hash)


def test_generated_keys_have_the_documented_shape_and_are_unique() -> None:
    keys = {generate_key() for _ in range(50)}
    assert len(keys) == 50
    for key in keys:
        assert re.fullmatch(r"mcp_[A-Za-z0-9_-]{43}", key)
        assert is_well_formed(key)


def test_hash_is_sha256_hex_and_prefix_is_too_short_to_use() -> None:
    key = generate_key()
    assert re.fullmatch(r"[0-9a-f]{64}", hash_key(key))
    assert hash_key(key) == hash_key(key) != hash_key(generate_key())
    assert display_prefix(key) == key[:8] + "…"
    assert not is_well_formed(display_prefix(key))


def _basic(userinfo: str) -> str:
    return "Basic " + base64.b64encode(userinfo.encode()).decode()


@pytest.mark.parametrize(
    ("authorization", "x_api_key", "expected"),
    [
        ("Bearer abc", None, "abc"),
        ("bearer   abc  ", None, "abc"),
        ("BEARER abc", "other", "abc"),
        ("Bearer ", "xyz", "xyz"),
        (None, " xyz ", "xyz"),
        (None, None, None),
        (_basic("any:mcp_key"), None, "mcp_key"),
        (_basic(":mcp_key"), "other", "mcp_key"),
        (_basic("user-only"), None, None),
        ("Basic not-base64!", "xyz", None),
        ("Digest abc", "xyz", "xyz"),
    ],
    ids=[
        "bearer",
        "bearer-lowercase-padded",
        "bearer-wins-over-x-api-key",
        "empty-bearer-falls-back",
        "x-api-key-trimmed",
        "nothing",
        "basic-password",
        "basic-empty-user",
        "basic-without-password",
        "basic-corrupt",
        "other-scheme-falls-back",
    ],
)
def test_extract_key(authorization: str | None, x_api_key: str | None, expected: str | None) -> None:
    assert extract_key(authorization, x_api_key) == expected


def _setup(ttl: float = 30.0) -> tuple[KeyAuthenticator, AccountAdmin, CountingStore, Clock, str]:
    store, clock = CountingStore(), Clock()
    admin = AccountAdmin(store, MemoryLedger(store))
    admin.create_account("a", frozenset({"hello"}), 0, account_id="acct_a")
    key = admin.issue_key("acct_a")
    return KeyAuthenticator(store, ttl, clock), admin, store, clock, key


def test_a_valid_key_is_looked_up_once_then_served_from_the_cache() -> None:
    auth, _, store, clock, key = _setup()
    principal = auth.authenticate(key)
    assert principal is not None and principal.account_id == "acct_a"
    assert principal.account.services == frozenset({"hello"})
    for _ in range(5):
        clock.now += 5
        assert auth.authenticate(key) == principal
    assert store.reads == 1


def test_revocation_takes_effect_after_the_cache_ttl() -> None:
    auth, admin, store, clock, key = _setup(ttl=30)
    assert auth.authenticate(key) is not None
    admin.revoke_key(key)
    clock.now += 29.9
    assert auth.authenticate(key) is not None  # still cached: at most ttl late
    clock.now += 0.2
    assert auth.authenticate(key) is None
    assert store.reads == 2


def test_unknown_keys_are_cached_briefly() -> None:
    auth, admin, store, clock, _ = _setup(ttl=30)
    later = generate_key()
    assert auth.authenticate(later) is None
    assert auth.authenticate(later) is None
    assert store.reads == 1
    admin.issue_key("acct_a", later)
    clock.now += 5.1  # negative entries live 5 s, not the full ttl
    assert auth.authenticate(later) is not None


@pytest.mark.parametrize("key", [None, "", "mcp_short", "nope", "mcp_" + "!" * 43])
def test_malformed_keys_never_reach_the_store(key: str | None) -> None:
    auth, _, store, _, _ = _setup()
    assert auth.authenticate(key) is None
    assert store.reads == 0


def test_a_key_whose_account_does_not_exist_is_refused() -> None:
    auth, _, store, _, _ = _setup()
    orphan = generate_key()
    store.put_key(ApiKeyRecord(hash_key(orphan), "acct_gone", display_prefix(orphan), "2026-01-01T00:00:00Z"))
    assert auth.authenticate(orphan) is None
