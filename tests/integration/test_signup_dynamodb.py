"""Sign-up over moto DynamoDB, wired by `dependencies_from_env`: one account per email under concurrency,
invites consumed atomically, and `mcp-admin invite` issuing codes the router accepts."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import orjson
import pytest

from localdev.invoker import InProcessInvoker
from mcp_admin import cli
from mcp_platform.storage.aws import client
from mcp_router.gateway import Gateway
from mcp_router.http import HttpRequest, HttpResponse
from mcp_router.wiring import dependencies_from_env
from tests.support.dynamo import TABLE_ENV, count_requests, router_env
from tests.support.router import JSON_HEADERS, message

if TYPE_CHECKING:
    from collections.abc import Iterator


@pytest.fixture(autouse=True)
def fresh_clients(aws: None) -> Iterator[None]:
    client.cache_clear()
    yield
    client.cache_clear()


def _gateway(mode: str = "open", per_ip: str = "100") -> Gateway:
    env = router_env(SIGNUP_MODE=mode, SIGNUPS_PER_IP_PER_HOUR=per_ip, WELCOME_CREDITS="25")
    return Gateway(dependencies_from_env(invoker=InProcessInvoker(), env=env))


def _register(gateway: Gateway, payload: dict[str, Any], ip: str = "192.0.2.1") -> HttpResponse:
    request = HttpRequest(
        "POST", "/api/auth/register", {"content-type": "application/json"}, orjson.dumps(payload), client_ip=ip
    )
    return gateway.handle(request)


def test_sign_up_creates_the_account_grant_and_key_in_dynamodb() -> None:
    gateway = _gateway()
    created = orjson.loads(_register(gateway, {"email": "Bot@Example.org", "account_type": "agent"}).body)
    assert created["balance"] == 25
    ddb = client("dynamodb")
    claim = ddb.get_item(TableName="SignupsTable", Key={"pk": {"S": "email#bot@example.org"}})["Item"]
    assert claim["account_id"]["S"] == created["account_id"]
    call = message("tools/call", {"name": "hello_ping", "arguments": {}})
    headers = {**JSON_HEADERS, "authorization": f"Bearer {created['api_key']}"}
    response = gateway.handle(HttpRequest("POST", "/mcp", headers, orjson.dumps(call)))
    assert orjson.loads(response.body)["result"]["structuredContent"]["message"].startswith("hello")


def test_simultaneous_sign_ups_with_one_email_make_exactly_one_account() -> None:
    gateway = _gateway()
    payload = {"email": "twin@example.org", "account_type": "agent"}
    with ThreadPoolExecutor(max_workers=6) as pool:
        responses = list(pool.map(lambda _: _register(gateway, payload), range(6)))
    assert sorted(r.status for r in responses) == [201] + [409] * 5
    for refused in (r for r in responses if r.status == 409):
        assert orjson.loads(refused.body) == {
            "jsonrpc": "2.0",
            "id": None,
            "error": {
                "code": -32000,
                "message": "An account with this email exists; use its API key",
                "data": {"reason": "email_taken"},
            },
        }
    accounts = client("dynamodb").scan(TableName="AccountsTable")["Items"]  # test inspection only
    assert [a["name"]["S"] for a in accounts].count("twin@example.org") == 1


def test_a_refused_sign_up_writes_no_account() -> None:
    gateway = _gateway(mode="invite")
    ddb = client("dynamodb")
    with count_requests(ddb) as counter:
        response = _register(gateway, {"email": "a@example.org", "account_type": "agent", "invite_code": "inv_x"})
    assert response.status == 403
    assert ddb.scan(TableName="AccountsTable")["Count"] == 0
    assert counter["TransactWriteItems"] == 1  # the attempt, cancelled whole


def test_invites_from_mcp_admin_admit_the_sign_ups_they_allow(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, value in TABLE_ENV.items():
        monkeypatch.setenv(name, value)
    assert cli.main(["invite", "create", "--uses", "2", "--note", "friends"]) == 0
    issued = json.loads(capsys.readouterr().out)
    assert issued["invite_code"].startswith("inv_") and issued["uses"] == 2 and issued["expires_at"]
    gateway = _gateway(mode="invite")
    statuses = [
        _register(
            gateway, {"email": f"{n}@example.org", "account_type": "agent", "invite_code": issued["invite_code"]}
        ).status
        for n in range(3)
    ]
    assert statuses == [201, 201, 403]
    assert cli.main(["invite", "create"]) == 0
    second = json.loads(capsys.readouterr().out)
    assert cli.main(["invite", "revoke", second["invite_id"]]) == 0
    capsys.readouterr()
    refused = _register(
        gateway, {"email": "z@example.org", "account_type": "agent", "invite_code": second["invite_code"]}
    )
    assert orjson.loads(refused.body)["error"]["data"]["reason"] == "invite_rejected"
    assert cli.main(["invite", "revoke", second["invite_code"]]) == 1
    assert "no such invite" in capsys.readouterr().err


def test_the_per_address_limit_is_shared_through_the_table() -> None:
    first, second = _gateway(per_ip="1"), _gateway(per_ip="1")
    assert _register(first, {"email": "a@example.org", "account_type": "agent"}).status == 201
    assert _register(second, {"email": "b@example.org", "account_type": "agent"}).status == 429
