"""The authorization server end to end in-process: registration, PKCE, consent, tokens, and each refusal.

The SDK's handlers run as in AWS (Starlette app), over moto's DynamoDB; the consent page is driven
as a browser would post it (its CSRF cookie is Secure, so the client speaks https://).
"""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
import time
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any
from urllib.parse import parse_qs, urlsplit

import boto3
import mcp.server.auth.handlers.token as token_handler
import pytest
from starlette.testclient import TestClient

from mcp_auth.app import auth_app
from mcp_auth.clients import ClientRegistry
from mcp_auth.email_codes import MAX_CODE_ATTEMPTS, EmailCodes, LocalOutbox
from mcp_auth.pending import MAX_ATTEMPTS, PendingRequests
from mcp_auth.portal import AccountViews
from mcp_auth.settings import AuthSettings
from mcp_platform.auth.accounts import AccountAdmin, SignupDesk
from mcp_platform.auth.dynamodb import DynamoAccountStore, DynamoSignupStore
from mcp_platform.auth.signup import SignupMode
from mcp_platform.auth.store import Account
from mcp_platform.billing.dynamodb import DynamoLedger
from mcp_platform.billing.usage import DynamoLedgerHistory
from mcp_platform.oauth.dynamodb import DynamoGrantStore
from mcp_platform.oauth.grants import digest
from mcp_platform.oauth.scopes import all_scopes
from mcp_platform.ratelimit.limiter import MemoryRateLimiter
from mcp_router.settings import RouterSettings
from tests.support.clock import Clock
from tests.support.dynamo import TABLE_ENV
from tests.support.router import ScriptedInvoker, fake_registry, fake_spec, platform

ISSUER = "https://mcp.test"
RESOURCE = ISSUER + "/mcp"
REDIRECT = "http://127.0.0.1:33418/callback"


@dataclass
class Server:
    http: TestClient
    grants: DynamoGrantStore
    key: str
    clock: Clock
    documents: dict[str, bytes]
    outbox: LocalOutbox


@pytest.fixture
def server(aws: None, monkeypatch: pytest.MonkeyPatch) -> Server:
    ddb = boto3.client("dynamodb")
    accounts = DynamoAccountStore(ddb, TABLE_ENV["ACCOUNTS_TABLE"], TABLE_ENV["API_KEYS_TABLE"])
    ledger = DynamoLedger(ddb, TABLE_ENV["ACCOUNTS_TABLE"], TABLE_ENV["LEDGER_TABLE"], TABLE_ENV["CALLS_TABLE"])
    admin = AccountAdmin(accounts, ledger)
    admin.create_account("Ada <b>Lovelace</b>", frozenset({"hello", "fake"}), 50, account_id="acct_ada")
    key = admin.issue_key("acct_ada")
    clock = Clock(time.time())
    grants = DynamoGrantStore(ddb, TABLE_ENV["OAUTH_TABLE"], clock)
    documents: dict[str, bytes] = {}
    settings = AuthSettings(issuer_url=ISSUER, oauth_table=TABLE_ENV["OAUTH_TABLE"])
    services = ["hello", "fake", "qr"]
    clients = ClientRegistry(grants, all_scopes(services), fetch=documents.__getitem__, clock=clock)
    signups = DynamoSignupStore(ddb, TABLE_ENV["ACCOUNTS_TABLE"], TABLE_ENV["SIGNUPS_TABLE"])
    signups.register(Account("acct_eve", "Eve", frozenset({"hello"})), "eve@example.org", None, int(clock()))
    outbox = LocalOutbox()
    codes = EmailCodes(grants, signups.account_for_email, outbox, clock)
    history = DynamoLedgerHistory(ddb, TABLE_ENV["LEDGER_TABLE"])
    desk = SignupDesk(admin, signups, SignupMode.OPEN, frozenset({"hello"}), 10)
    limiter = MemoryRateLimiter(clock, window_seconds=3600)
    views = AccountViews(admin, ledger, history, str, grants, codes, desk, limiter, 2, outbox)
    app = auth_app(settings, services, clients, grants, PendingRequests(grants, clock), views, clock)
    # The SDK's token handler checks expiry against time.time(): it reads the test's clock too.
    monkeypatch.setattr(token_handler, "time", SimpleNamespace(time=clock))
    return Server(TestClient(app, base_url=ISSUER, follow_redirects=False), grants, key, clock, documents, outbox)


def pkce() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")
    return verifier, challenge


def register(s: Server, name: str = "Test <script>alert(1)</script> client") -> str:
    response = s.http.post(
        "/register",
        json={"redirect_uris": [REDIRECT], "client_name": name, "token_endpoint_auth_method": "client_secret_post"},
    )
    assert response.status_code == 201, response.text
    info = response.json()
    assert info["token_endpoint_auth_method"] == "none" and "client_secret" not in info
    return str(info["client_id"])


def authorize(s: Server, client_id: str, challenge: str, **extra: str) -> Any:
    params = {
        "response_type": "code",
        "client_id": client_id,
        "redirect_uri": REDIRECT,
        "code_challenge": challenge,
        "code_challenge_method": "S256",
        "state": "st4te",
        "resource": RESOURCE,
        **extra,
    }
    return s.http.get("/authorize", params={k: v for k, v in params.items() if v != ""})


def consent_form(s: Server, location: str) -> dict[str, str]:
    page = s.http.get(location)
    assert page.status_code == 200, page.text
    return _hidden_fields(page.text)


def _hidden_fields(html: str) -> dict[str, str]:
    """The hidden inputs of the page's first form (the sign-in page has a second one, for email)."""
    first = html.split("</form>", 1)[0]
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', first))


def consent(s: Server, client_id: str, challenge: str, decision: str = "allow", **extra: str) -> dict[str, list[str]]:
    """Authorize, sign in with the key, decide; the query the client's redirect URI receives."""
    response = authorize(s, client_id, challenge, **extra)
    assert response.status_code == 302, response.text
    form = consent_form(s, response.headers["location"])
    signed_in = s.http.post("/oauth/consent", data={**form, "api_key": s.key})
    assert signed_in.status_code == 200, signed_in.text
    decided = s.http.post("/oauth/consent", data={**_hidden_fields(signed_in.text), "action": decision})
    assert decided.status_code == 303
    target = decided.headers["location"]
    assert target.startswith(REDIRECT + "?")
    return parse_qs(urlsplit(target).query)


def exchange(s: Server, client_id: str, code: str, verifier: str, **extra: str) -> Any:
    data = {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": REDIRECT,
        "client_id": client_id,
        "code_verifier": verifier,
        "resource": RESOURCE,
        **extra,
    }
    return s.http.post("/token", data=data)


def tokens(s: Server, **extra: str) -> tuple[str, dict[str, Any]]:
    client_id = register(s)
    verifier, challenge = pkce()
    query = consent(s, client_id, challenge, **extra)
    response = exchange(s, client_id, query["code"][0], verifier)
    assert response.status_code == 200, response.text
    return client_id, response.json()


def refresh(s: Server, client_id: str, refresh_token: str) -> Any:
    return s.http.post(
        "/token", data={"grant_type": "refresh_token", "refresh_token": refresh_token, "client_id": client_id}
    )


# -- metadata


def test_authorization_server_metadata(server: Server) -> None:
    metadata = server.http.get("/.well-known/oauth-authorization-server").json()
    assert metadata["issuer"] == ISSUER + "/"
    assert metadata["code_challenge_methods_supported"] == ["S256"]
    assert metadata["response_types_supported"] == ["code"]
    assert metadata["authorization_response_iss_parameter_supported"] is True
    assert metadata["client_id_metadata_document_supported"] is True
    assert metadata["registration_endpoint"] == ISSUER + "/register"
    assert metadata["revocation_endpoint"] == ISSUER + "/revoke"
    assert "tools:hello" in metadata["scopes_supported"] and "credits:read" in metadata["scopes_supported"]


# -- the happy path


def test_code_flow_with_pkce_gives_tokens_the_router_accepts(server: Server) -> None:
    _client_id, issued = tokens(server)
    assert issued["token_type"] == "Bearer" and issued["access_token"].startswith("mcpat_")
    assert set(issued["scope"].split()) == {"tools:fake", "tools:hello", "credits:read"}
    router = platform(
        fake_registry(fake_spec("fake_paid", price=2)),
        ScriptedInvoker(),
        settings=RouterSettings(public_url=ISSUER, key_cache_seconds=0),
        grants=DynamoGrantStore(boto3.client("dynamodb"), TABLE_ENV["OAUTH_TABLE"]),
        adapter="dynamodb",
    )
    result = router.rpc("tools/call", {"name": "fake_paid", "arguments": {"text": "hi"}}, key=issued["access_token"])
    assert result["isError"] is False


def test_the_redirect_carries_code_state_and_iss(server: Server) -> None:
    client_id = register(server)
    _verifier, challenge = pkce()
    query = consent(server, client_id, challenge)
    assert query["state"] == ["st4te"] and query["iss"] == [ISSUER + "/"] and query["code"][0].startswith("mcpac_")


def test_scopes_asked_for_narrow_the_grant(server: Server) -> None:
    _client, issued = tokens(server, scope="tools:hello")
    assert issued["scope"] == "tools:hello"


def test_deny_redirects_with_access_denied(server: Server) -> None:
    client_id = register(server)
    _verifier, challenge = pkce()
    query = consent(server, client_id, challenge, decision="deny")
    assert query["error"] == ["access_denied"] and query["iss"] == [ISSUER + "/"] and "code" not in query


def test_the_consent_page_escapes_the_client_name_and_names_the_account(server: Server) -> None:
    client_id = register(server)
    _verifier, challenge = pkce()
    location = authorize(server, client_id, challenge).headers["location"]
    page = server.http.get(location)
    assert "<script>" not in page.text and "&lt;script&gt;" in page.text
    assert "default-src 'none'" in page.headers["content-security-policy"]
    cookie = page.headers["set-cookie"]
    assert "HttpOnly" in cookie and "Secure" in cookie and "SameSite=strict" in cookie.replace("Strict", "strict")
    signed_in = server.http.post("/oauth/consent", data={**_hidden_fields(page.text), "api_key": server.key})
    assert "Ada &lt;b&gt;Lovelace&lt;/b&gt;" in signed_in.text and "acct_ada" in signed_in.text


def test_refresh_rotates_and_a_reused_refresh_token_revokes_the_family(server: Server) -> None:
    client_id, issued = tokens(server)
    rotated = refresh(server, client_id, issued["refresh_token"])
    assert rotated.status_code == 200, rotated.text
    fresh = rotated.json()
    assert fresh["refresh_token"] != issued["refresh_token"]
    assert server.grants.get_access(digest(fresh["access_token"])) is not None
    reused = refresh(server, client_id, issued["refresh_token"])
    assert reused.status_code == 400 and reused.json()["error"] == "invalid_grant"
    assert server.grants.get_access(digest(fresh["access_token"])) is None
    assert refresh(server, client_id, fresh["refresh_token"]).status_code == 400


def test_revocation_ends_the_grant(server: Server) -> None:
    client_id, issued = tokens(server)
    # The SDK's RevocationRequest requires the client_secret field even of a public client: sent empty.
    form = {"token": issued["refresh_token"], "client_id": client_id, "client_secret": ""}
    response = server.http.post("/revoke", data=form)
    assert response.status_code == 200, response.text
    assert server.grants.get_access(digest(issued["access_token"])) is None


def test_everything_is_stored_hashed(server: Server) -> None:
    _client, issued = tokens(server)
    stored = str(boto3.client("dynamodb").scan(TableName=TABLE_ENV["OAUTH_TABLE"])["Items"])
    for secret in (issued["access_token"], issued["refresh_token"], server.key):
        assert secret not in stored and secret[6:] not in stored


# -- client ID metadata documents


def test_a_client_id_metadata_document_is_fetched_checked_and_cached(server: Server) -> None:
    url = "https://app.example/oauth/client.json"
    server.documents[url] = b'{"client_id": "%s", "client_name": "Example", "redirect_uris": ["%s"]}' % (
        url.encode(),
        REDIRECT.encode(),
    )
    verifier, challenge = pkce()
    query = consent(server, url, challenge)
    del server.documents[url]  # cached from now on
    assert exchange(server, url, query["code"][0], verifier).status_code == 200


def test_a_metadata_document_naming_another_client_id_is_refused(server: Server) -> None:
    url = "https://app.example/oauth/liar.json"
    server.documents[url] = (
        b'{"client_id": "https://other.example/c.json", "redirect_uris": ["%s"]}' % REDIRECT.encode()
    )
    _verifier, challenge = pkce()
    response = authorize(server, url, challenge)
    assert response.status_code == 400 and "location" not in response.headers


# -- refusals


@pytest.mark.parametrize(
    "extra",
    [{"code_challenge": ""}, {"code_challenge_method": "plain"}],
    ids=["missing-pkce", "plain-pkce"],
)
def test_missing_or_plain_pkce_is_refused(server: Server, extra: dict[str, str]) -> None:
    client_id = register(server)
    _verifier, challenge = pkce()
    response = authorize(server, client_id, challenge, **extra)
    assert response.status_code == 302  # the client and its redirect URI are known: the error goes back to it
    query = parse_qs(urlsplit(response.headers["location"]).query)
    assert response.headers["location"].startswith(REDIRECT + "?")
    assert query["error"] == ["invalid_request"] and "code" not in query


def test_a_wrong_verifier_is_refused(server: Server) -> None:
    client_id = register(server)
    _verifier, challenge = pkce()
    query = consent(server, client_id, challenge)
    response = exchange(server, client_id, query["code"][0], "wrong" * 10)
    assert response.status_code == 400 and response.json()["error"] == "invalid_grant"


def test_an_unregistered_redirect_uri_is_never_redirected_to(server: Server) -> None:
    client_id = register(server)
    _verifier, challenge = pkce()
    response = authorize(server, client_id, challenge, redirect_uri="https://evil.example/cb")
    assert response.status_code == 400 and "location" not in response.headers


def test_a_code_works_once(server: Server) -> None:
    client_id = register(server)
    verifier, challenge = pkce()
    code = consent(server, client_id, challenge)["code"][0]
    assert exchange(server, client_id, code, verifier).status_code == 200
    again = exchange(server, client_id, code, verifier)
    assert again.status_code == 400 and again.json()["error"] == "invalid_grant"


def test_a_code_expires(server: Server) -> None:
    client_id = register(server)
    verifier, challenge = pkce()
    code = consent(server, client_id, challenge)["code"][0]
    server.clock.sleep(301)
    response = exchange(server, client_id, code, verifier)
    assert response.status_code == 400 and response.json()["error"] == "invalid_grant"


def test_a_wrong_resource_is_refused(server: Server) -> None:
    client_id = register(server)
    _verifier, challenge = pkce()
    response = authorize(server, client_id, challenge, resource="https://other.example/mcp")
    query = parse_qs(urlsplit(response.headers["location"]).query)
    assert query["error"] == ["invalid_target"] and "/oauth/consent" not in response.headers["location"]


def test_a_missing_csrf_token_is_refused(server: Server) -> None:
    client_id = register(server)
    _verifier, challenge = pkce()
    form = consent_form(server, authorize(server, client_id, challenge).headers["location"])
    del form["csrf"]
    response = server.http.post("/oauth/consent", data={**form, "api_key": server.key})
    assert response.status_code == 403 and "location" not in response.headers


def test_wrong_keys_are_limited(server: Server) -> None:
    client_id = register(server)
    _verifier, challenge = pkce()
    form = consent_form(server, authorize(server, client_id, challenge).headers["location"])
    wrong = {"api_key": "mcp_" + "x" * 43}
    for _ in range(MAX_ATTEMPTS - 1):
        response = server.http.post("/oauth/consent", data={**form, **wrong})
        assert response.status_code == 400 and "attempts left" in response.text
        form = _hidden_fields(response.text)
    assert server.http.post("/oauth/consent", data={**form, **wrong}).status_code == 429
    gone = server.http.post("/oauth/consent", data={**form, "api_key": server.key})
    assert gone.status_code == 400 and "location" not in gone.headers


def test_browser_clients_may_read_the_metadata_cross_origin(server: Server) -> None:
    preflight = server.http.options(
        "/.well-known/oauth-authorization-server",
        headers={"origin": "http://localhost:6274", "access-control-request-method": "GET"},
    )
    assert preflight.status_code == 200 and preflight.headers["access-control-allow-origin"] in (
        "*",
        "http://localhost:6274",
    )


# -- the portal's connected apps


def test_the_portal_lists_a_connected_app_and_revokes_it(server: Server) -> None:
    _client_id, issued = tokens(server)
    assert server.http.post("/account/sign-in", data={"api_key": server.key}).status_code == 303
    home = server.http.get("/account")
    assert "Test &lt;script&gt;" in home.text and "<script>" not in home.text
    revoke_form = re.search(r'<form method="post" action="/account/apps/revoke">(.*?)</form>', home.text)
    assert revoke_form is not None
    assert server.http.post("/account/apps/revoke", data=_hidden_fields(revoke_form.group(1))).status_code == 303
    assert server.grants.get_access(digest(issued["access_token"])) is None
    assert "No connected apps." in server.http.get("/account").text


def test_the_portal_refuses_another_accounts_app(server: Server) -> None:
    _client_id, issued = tokens(server)
    server.http.post("/account/sign-in", data={"api_key": server.key})
    csrf = _hidden_fields(server.http.get("/account").text)["csrf"]
    family_id = server.grants.families_of("acct_ada")[0].family_id
    server.http.cookies.clear()
    other = AccountAdmin(
        DynamoAccountStore(boto3.client("dynamodb"), TABLE_ENV["ACCOUNTS_TABLE"], TABLE_ENV["API_KEYS_TABLE"]),
        DynamoLedger(
            boto3.client("dynamodb"), TABLE_ENV["ACCOUNTS_TABLE"], TABLE_ENV["LEDGER_TABLE"], TABLE_ENV["CALLS_TABLE"]
        ),
    )
    other.create_account("Mallory", frozenset({"hello"}), 0, account_id="acct_mallory")
    server.http.post("/account/sign-in", data={"api_key": other.issue_key("acct_mallory")})
    mallory_csrf = _hidden_fields(server.http.get("/account").text)["csrf"]
    assert mallory_csrf != csrf
    server.http.post("/account/apps/revoke", data={"csrf": mallory_csrf, "family_id": family_id})
    assert server.grants.get_access(digest(issued["access_token"])) is not None


# -- signing in by email code


def _last_code(s: Server) -> str:
    match = re.search(r"Your code is (\d{6})", s.outbox.messages[0][2])
    assert match is not None
    return match.group(1)


def test_the_portal_signs_in_with_an_emailed_code_once(server: Server) -> None:
    asked = server.http.post("/account/email-code", data={"email": " Eve@Example.org"})
    assert asked.status_code == 200 and 'name="code"' in asked.text
    code = _last_code(server)
    assert code not in str(boto3.client("dynamodb").scan(TableName=TABLE_ENV["OAUTH_TABLE"])["Items"])
    signed_in = server.http.post("/account/sign-in/code", data={"email": "eve@example.org", "code": code})
    assert signed_in.status_code == 303
    assert "acct_eve" in server.http.get("/account").text
    server.http.cookies.clear()
    again = server.http.post("/account/sign-in/code", data={"email": "eve@example.org", "code": code})
    assert again.status_code == 400


def test_an_unknown_address_looks_the_same_and_gets_no_mail(server: Server) -> None:
    asked = server.http.post("/account/email-code", data={"email": "nobody@example.org"})
    assert asked.status_code == 200 and "a code is on its way" in asked.text
    assert not server.outbox.messages


def test_wrong_codes_are_limited(server: Server) -> None:
    server.http.post("/account/email-code", data={"email": "eve@example.org"})
    code = _last_code(server)
    wrong = "000000" if code != "000000" else "111111"
    for _ in range(MAX_CODE_ATTEMPTS):
        response = server.http.post("/account/sign-in/code", data={"email": "eve@example.org", "code": wrong})
        assert response.status_code == 400
    late = server.http.post("/account/sign-in/code", data={"email": "eve@example.org", "code": code})
    assert late.status_code == 400


def test_the_consent_page_signs_in_with_an_emailed_code(server: Server) -> None:
    client_id = register(server)
    _verifier, challenge = pkce()
    form = consent_form(server, authorize(server, client_id, challenge).headers["location"])
    asked = server.http.post("/oauth/consent", data={**form, "action": "send_code", "email": "eve@example.org"})
    assert "Sign-in code" in asked.text
    assert asked.status_code == 200
    fields = _hidden_fields(asked.text)
    signed_in = server.http.post("/oauth/consent", data={**fields, "code": _last_code(server)})
    assert signed_in.status_code == 200 and "acct_eve" in signed_in.text
    decided = server.http.post("/oauth/consent", data={**_hidden_fields(signed_in.text), "action": "allow"})
    assert decided.status_code == 303 and "code=mcpac_" in decided.headers["location"]


# -- signing up in the portal


def test_the_portal_signs_up_shows_the_key_once_and_limits_each_address(server: Server) -> None:
    welcome = server.http.post("/account/sign-up", data={"email": "new@example.org"})
    assert welcome.status_code == 200 and "mcp_" in welcome.text and "shown once" in welcome.text
    assert "10 credits" in server.http.get("/account").text
    taken = server.http.post("/account/sign-up", data={"email": "new@example.org"})
    assert taken.status_code == 409
    limited = server.http.post("/account/sign-up", data={"email": "third@example.org"})
    assert limited.status_code == 429
