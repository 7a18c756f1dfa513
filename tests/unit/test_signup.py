"""Agent self-service sign-up through the gateway (in-memory stores): modes, invites, limits, bad bodies."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import orjson
import pytest

from mcp_platform.auth.signup import SignupMode
from mcp_platform.protocol.jsonrpc import INVALID_PARAMS, PARSE_ERROR
from mcp_router.http import HttpRequest, HttpResponse
from mcp_router.settings import RouterSettings
from mcp_router.transport import TRANSPORT_ERROR
from tests.support.router import Platform, assert_rpc_error, body, message, platform

PATH = "/api/auth/register"


def _platform(mode: SignupMode = SignupMode.OPEN, per_ip: int = 100, credits: int = 100) -> Platform:
    settings = RouterSettings(signup_mode=mode, signups_per_ip_per_hour=per_ip, welcome_credits=credits)
    return platform(settings=settings)


def register(
    plat: Platform, payload: Any, ip: str = "192.0.2.10", content_type: str = "application/json"
) -> HttpResponse:
    raw = payload if isinstance(payload, bytes) else orjson.dumps(payload)
    headers = {"content-type": content_type}
    return plat.gateway.handle(HttpRequest("POST", PATH, headers, raw, client_ip=ip))


def _reason(response: HttpResponse, status: int, code: int = TRANSPORT_ERROR) -> str:
    return assert_rpc_error(response, status, code)["data"]["reason"]


def test_an_agent_signs_up_and_its_key_works_with_the_welcome_credits() -> None:
    plat = _platform(credits=42)
    response = register(plat, {"email": "Agent.Smith@Example.org ", "account_type": "agent"})
    assert response.status == 201, response.body
    assert response.headers["cache-control"] == "no-store"
    created = body(response)
    assert created["balance"] == 42
    assert created["services"] == sorted(plat.deps.registry.services)
    account = plat.store.get_account(created["account_id"])
    assert account is not None and account.name == "agent.smith@example.org"
    assert [(e.kind, e.amount) for e in plat.ledger.entries(created["account_id"])] == [("grant", 42)]
    result = plat.call("hello_ping", {"name": "me"}, headers={"authorization": f"Bearer {created['api_key']}"})
    assert result["structuredContent"]["message"] == "hello, me"
    # The key is stored only as a hash.
    assert all(created["api_key"] not in repr(k) for k in plat.store.keys_of(created["account_id"]))


def test_account_type_is_optional() -> None:
    """Issue 39: sign-up required account_type yet accepted only "agent"; leaving it out means just that."""
    plat = _platform()
    response = register(plat, {"email": "plain@example.org"})
    assert response.status == 201, response.body


def test_one_account_per_email_whatever_its_case() -> None:
    plat = _platform()
    assert register(plat, {"email": "a@example.org", "account_type": "agent"}).status == 201
    again = register(plat, {"email": "A@EXAMPLE.ORG", "account_type": "agent"})
    assert _reason(again, 409) == "email_taken"


def test_simultaneous_sign_ups_with_one_email_make_one_account() -> None:
    plat = _platform()
    with ThreadPoolExecutor(max_workers=8) as pool:
        responses = list(
            pool.map(lambda _: register(plat, {"email": "race@example.org", "account_type": "agent"}), range(8))
        )
    assert sorted(r.status for r in responses) == [201] + [409] * 7
    assert all(body(r)["jsonrpc"] == "2.0" for r in responses if r.status == 409)


@pytest.mark.parametrize(
    ("payload", "status", "code", "words"),
    [
        (b"{not json", 400, PARSE_ERROR, "not valid JSON"),
        ([1, 2], 400, PARSE_ERROR, "JSON object"),
        ({"account_type": "agent"}, 422, INVALID_PARAMS, "email: Field required"),
        ({"email": "not-an-email", "account_type": "agent"}, 422, INVALID_PARAMS, "email"),
        ({"email": "a@example.org", "account_type": "human"}, 422, INVALID_PARAMS, "account_type"),
        ({"email": "a@example.org", "account_type": "agent", "password": "x"}, 422, INVALID_PARAMS, "password"),
        ({"email": "a" * 300 + "@example.org", "account_type": "agent"}, 422, INVALID_PARAMS, "email"),
    ],
)
def test_bad_bodies_are_4xx_naming_the_problem(payload: Any, status: int, code: int, words: str) -> None:
    plat = _platform()
    error = assert_rpc_error(register(plat, payload), status, code)
    assert words in error["message"]
    assert len(plat.store._accounts) == 1  # only the fixture's account


def test_wrong_content_type_and_method() -> None:
    plat = _platform()
    assert (
        _reason(register(plat, {"email": "a@example.org"}, content_type="text/plain"), 415) == "unsupported_media_type"
    )
    response = plat.gateway.handle(HttpRequest("GET", PATH, {}, b""))
    assert _reason(response, 405) == "method_not_allowed" and response.headers["allow"] == "POST"


def test_closed_mode_refuses_everyone() -> None:
    plat = _platform(SignupMode.CLOSED)
    assert _reason(register(plat, {"email": "a@example.org", "account_type": "agent"}), 403) == "signup_closed"


def test_invite_mode_needs_a_live_code_and_each_use_counts() -> None:
    plat = _platform(SignupMode.INVITE)
    assert _reason(register(plat, {"email": "a@example.org", "account_type": "agent"}), 403) == "invite_required"
    bogus = {"email": "a@example.org", "account_type": "agent", "invite_code": "inv_nope"}
    assert _reason(register(plat, bogus), 403) == "invite_rejected"
    code, _invite = plat.signups.issue_invite(uses=2)
    for n, email in enumerate(["a@example.org", "b@example.org", "c@example.org"]):
        response = register(plat, {"email": email, "account_type": "agent", "invite_code": code})
        assert response.status == (201 if n < 2 else 403), response.body
    revoked, _ = plat.signups.issue_invite()
    plat.signups.revoke_invite(revoked)
    assert _reason(
        register(plat, {"email": "d@example.org", "account_type": "agent", "invite_code": revoked}), 403
    ) == ("invite_rejected")


def test_an_expired_invite_is_refused_and_a_refused_sign_up_keeps_the_email_free() -> None:
    plat = _platform(SignupMode.INVITE)
    now = [1_000_000.0]
    plat.signups.clock = lambda: now[0]
    code, invite = plat.signups.issue_invite(days=1)
    assert invite.expires_at == 1_000_000 + 86400
    now[0] += 86401
    payload = {"email": "late@example.org", "account_type": "agent", "invite_code": code}
    assert _reason(register(plat, payload), 403) == "invite_rejected"
    fresh, _ = plat.signups.issue_invite()
    assert register(plat, {**payload, "invite_code": fresh}).status == 201


def test_sign_ups_are_limited_per_source_address() -> None:
    plat = _platform(per_ip=2)
    statuses = [register(plat, {"email": f"{i}@example.org", "account_type": "agent"}).status for i in range(3)]
    assert statuses == [201, 201, 429]
    limited = register(plat, {"email": "x@example.org", "account_type": "agent"})
    assert _reason(limited, 429) == "rate_limited" and int(limited.headers["retry-after"]) >= 1
    assert register(plat, {"email": "y@example.org", "account_type": "agent"}, ip="198.51.100.7").status == 201


def test_the_well_known_document_and_llms_txt_advertise_sign_up() -> None:
    for mode in SignupMode:
        plat = _platform(mode)
        known = body(plat.request(None, method="GET", path="/.well-known/mcp", key=None))
        assert known["registration"]["mode"] == mode
        llms = plat.request(None, method="GET", path="/llms.txt", key=None).body.decode()
        if mode is SignupMode.CLOSED:
            assert "endpoint" not in known["registration"] and "closed" in llms
        else:
            assert known["registration"]["endpoint"].endswith(PATH)
            assert ("invite_code" in known["registration"]["body"]) is (mode is SignupMode.INVITE)
            assert f"POST {PATH}" in llms


def test_sign_up_is_not_an_mcp_method() -> None:
    plat = _platform()
    response = plat.post(message("auth/register", {"email": "a@example.org"}))
    assert body(response)["error"]["code"] == -32601
