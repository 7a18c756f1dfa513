"""The router as an OAuth protected resource: the 401 challenge, RFC 9728 metadata, tokens beside keys."""

from __future__ import annotations

from typing import Any

import boto3
import pytest

from mcp_platform.oauth.dynamodb import DynamoGrantStore
from mcp_platform.oauth.scopes import CREDITS_READ, service_scope
from mcp_platform.protocol.jsonrpc import INVALID_PARAMS
from mcp_router.settings import RouterSettings
from tests.support.dynamo import TABLE_ENV
from tests.support.oauth import mint_access_token
from tests.support.router import Platform, ScriptedInvoker, body, fake_registry, fake_spec, message, platform

PUBLIC = "https://mcp.example"
RESOURCE = PUBLIC + "/mcp"
METADATA = PUBLIC + "/.well-known/oauth-protected-resource/mcp"


@pytest.fixture
def grants(aws: None) -> DynamoGrantStore:
    return DynamoGrantStore(boto3.client("dynamodb"), TABLE_ENV["OAUTH_TABLE"])


@pytest.fixture
def p(grants: DynamoGrantStore) -> Platform:
    return platform(
        fake_registry(fake_spec("fake_paid", price=2)),
        ScriptedInvoker(),
        settings=RouterSettings(public_url=PUBLIC, key_cache_seconds=0),
        grants=grants,
        adapter="dynamodb",
    )


def _tools(p: Platform, token: str) -> list[str]:
    return [t["name"] for t in p.rpc("tools/list", {}, key=token)["tools"]]


def test_no_credential_is_a_401_pointing_at_the_resource_metadata(p: Platform) -> None:
    response = p.post(message("tools/list"), key=None)
    assert response.status == 401
    assert response.headers["www-authenticate"] == f'Bearer resource_metadata="{METADATA}"'


def test_a_made_up_token_is_a_401_with_the_challenge_and_invalid_token(p: Platform) -> None:
    response = p.post(message("tools/list"), key="mcpat_" + "x" * 43)
    assert response.status == 401
    assert response.headers["www-authenticate"] == f'Bearer resource_metadata="{METADATA}", error="invalid_token"'


@pytest.mark.parametrize("path", ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"])
def test_protected_resource_metadata(p: Platform, path: str) -> None:
    response = p.request(b"", method="GET", path=path, key=None)
    assert response.status == 200
    metadata = body(response)
    assert metadata["resource"] == RESOURCE
    assert metadata["authorization_servers"] == [PUBLIC + "/"]
    assert metadata["bearer_methods_supported"] == ["header"]
    assert service_scope("hello") in metadata["scopes_supported"] and CREDITS_READ in metadata["scopes_supported"]


def test_api_keys_work_as_before(p: Platform) -> None:
    assert "hello_ping" in _tools(p, p.key)


def test_a_token_sees_only_the_tools_its_scopes_allow(p: Platform, grants: DynamoGrantStore) -> None:
    token = mint_access_token(grants, p.account_id, [service_scope("hello")], RESOURCE)
    names = [n for n in _tools(p, token) if n != "tools_search"]  # the router's own search is on every connection
    assert names and all(n.startswith("hello_") for n in names)
    assert set(names) < set(_tools(p, p.key))


def test_a_call_outside_the_scopes_is_a_clear_error_and_uncharged(p: Platform, grants: DynamoGrantStore) -> None:
    token = mint_access_token(grants, p.account_id, [service_scope("hello")], RESOURCE)
    before = p.ledger.balance(p.account_id)
    response = p.post(message("tools/call", {"name": "fake_paid", "arguments": {"text": "x"}}), key=token)
    error = body(response)["error"]
    assert error["code"] == INVALID_PARAMS
    assert "tools:fake" in error["message"] and error["data"] == {"required_scope": "tools:fake"}
    assert p.ledger.balance(p.account_id) == before


def test_a_token_makes_a_billed_call_within_its_scopes(p: Platform, grants: DynamoGrantStore) -> None:
    token = mint_access_token(grants, p.account_id, [service_scope("fake")], RESOURCE)
    before = p.ledger.balance(p.account_id)
    result = p.rpc("tools/call", {"name": "fake_paid", "arguments": {"text": "hi"}}, key=token)
    assert result["isError"] is False
    assert p.ledger.balance(p.account_id) == before - 2


def test_credits_resources_need_credits_read(p: Platform, grants: DynamoGrantStore) -> None:
    without = mint_access_token(grants, p.account_id, [service_scope("hello")], RESOURCE)
    error = body(p.post(message("resources/read", {"uri": "credits://balance"}), key=without))["error"]
    assert CREDITS_READ in error["message"]
    with_scope = mint_access_token(grants, p.account_id, [CREDITS_READ], RESOURCE)
    assert p.rpc("resources/read", {"uri": "credits://balance"}, key=with_scope)["contents"]


@pytest.mark.parametrize(
    ("resource", "lifetime"),
    [("https://other.example/mcp", 3600), (RESOURCE, -1)],
    ids=["wrong-resource", "expired"],
)
def test_a_token_for_another_resource_or_expired_is_a_401(
    p: Platform, grants: DynamoGrantStore, resource: str, lifetime: int
) -> None:
    token = mint_access_token(grants, p.account_id, [service_scope("hello")], resource, lifetime=lifetime)
    response = p.post(message("tools/list"), key=token)
    assert response.status == 401
    assert 'error="invalid_token"' in response.headers["www-authenticate"]


def test_a_revoked_token_is_a_401(p: Platform, grants: DynamoGrantStore) -> None:
    from mcp_platform.oauth.grants import digest

    token = mint_access_token(grants, p.account_id, [service_scope("hello")], RESOURCE)
    assert _tools(p, token)
    grants.revoke_token(digest(token))
    assert p.post(message("tools/list"), key=token).status == 401


def test_tokens_are_stored_only_hashed(p: Platform, grants: DynamoGrantStore) -> None:
    token = mint_access_token(grants, p.account_id, [service_scope("hello")], RESOURCE)
    items: Any = boto3.client("dynamodb").scan(TableName=TABLE_ENV["OAUTH_TABLE"])["Items"]
    assert token not in str(items) and token[6:] not in str(items)


def test_browser_clients_may_read_the_metadata_cross_origin(p: Platform) -> None:
    preflight = p.request(b"", method="OPTIONS", path="/.well-known/oauth-protected-resource/mcp", key=None)
    assert preflight.status == 204
    assert preflight.headers["access-control-allow-origin"] == "*"
    assert "mcp-protocol-version" in preflight.headers["access-control-allow-headers"]
