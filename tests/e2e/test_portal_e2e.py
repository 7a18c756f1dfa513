"""The account portal in headless Chromium against `make dev`: sign up, sign in by emailed code, create a key,
use it, see it in usage and the ledger, revoke it.

A server of its own with a one-second key cache, so a revoked key is refused on the next call.
Screenshots of each page are kept in test-artifacts/portal/.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

from tests.e2e.conftest import running_local_server

if TYPE_CHECKING:
    from collections.abc import Iterator

    from tests.e2e.conftest import LocalServer

pytestmark = pytest.mark.e2e

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "portal"
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
MCP_HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
CALL = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "tools/call",
    "params": {"name": "validate_iban", "arguments": {"iban": "DE89370400440532013000"}},
}


@pytest.fixture(scope="module")
def server() -> Iterator[LocalServer]:
    with running_local_server({"KEY_CACHE_SECONDS": "1"}, ".e2e-portal-server.log") as running:
        yield running


def _call(server: LocalServer, key: str) -> httpx.Response:
    return httpx.post(server.url, json=CALL, headers={**MCP_HEADERS, "authorization": f"Bearer {key}"}, timeout=30)


def test_portal_sign_up_sign_in_key_lifecycle_usage_and_ledger(server: LocalServer) -> None:
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    email = "portal-e2e@example.org"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        page = browser.new_page()
        page.goto(server.base + "/account")
        page.screenshot(path=ARTIFACTS / "1-sign-in-or-sign-up.png", full_page=True)

        # sign up (make dev: SignupMode open): the account's first key, shown once
        page.get_by_label("Email address for the new account").fill(email)
        page.get_by_role("button", name="Create an account").click()
        first_key = page.get_by_label("New API key").input_value()
        page.screenshot(path=ARTIFACTS / "2-signed-up.png", full_page=True)
        assert first_key.startswith("mcp_")
        page.goto(server.base + "/account")
        page.get_by_role("button", name="Sign out").click()

        # sign in with a code sent to the address (make dev's outbox page stands in for the mailbox)
        page.get_by_label("Email address of your account").fill(email)
        page.get_by_role("button", name="Email me a code").click()
        mailbox = browser.new_page()
        mailbox.goto(server.base + "/account/outbox")
        mailbox.screenshot(path=ARTIFACTS / "3-local-outbox.png", full_page=True)
        code = re.search(r"Your code is (\d{6})", mailbox.locator("li", has_text=email).first.inner_text())
        assert code is not None
        page.get_by_label("Sign-in code").fill(code.group(1))
        page.get_by_role("button", name="Sign in with the code").click()
        page.get_by_role("heading", name="Your account").wait_for()
        page.screenshot(path=ARTIFACTS / "4-account.png", full_page=True)

        page.get_by_role("button", name="Create a key").click()
        new_key = page.get_by_label("New API key").input_value()
        page.screenshot(path=ARTIFACTS / "5-new-key.png", full_page=True)
        assert new_key.startswith("mcp_") and new_key != first_key

        called = _call(server, new_key)
        assert called.status_code == 200 and called.json()["result"]["isError"] is False

        page.goto(server.base + "/account")
        assert "validate_iban" in page.locator("#ledger").inner_text()
        assert "validate" in page.locator("#usage").inner_text()
        page.screenshot(path=ARTIFACTS / "6-usage-and-ledger.png", full_page=True)
        csv = page.context.request.get(server.base + "/account/ledger.csv")
        assert csv.ok and "validate_iban" in csv.text() and csv.text().startswith("created_at,kind,amount")

        page.locator("tr", has_text=new_key[:8]).get_by_role("button", name="Revoke").click()
        page.get_by_role("heading", name="Your account").wait_for()
        assert "revoked" in page.locator("tr", has_text=new_key[:8]).inner_text()
        page.screenshot(path=ARTIFACTS / "7-key-revoked.png", full_page=True)
        browser.close()

    time.sleep(1.5)  # the router's key cache (KEY_CACHE_SECONDS=1 here)
    assert _call(server, new_key).status_code == 401
    assert _call(server, first_key).status_code == 200


def test_portal_posts_without_the_csrf_token_are_refused(server: LocalServer) -> None:
    signed_in = httpx.post(server.base + "/account/sign-in", data={"api_key": server.api_key})
    assert signed_in.status_code == 303
    cookie = signed_in.headers["set-cookie"].split(";")[0]  # Secure: httpx would not send it back over http
    assert cookie.startswith("mcp_session=")
    refused = httpx.post(server.base + "/account/keys", data={}, headers={"cookie": cookie})
    assert refused.status_code == 403
    listed = httpx.get(server.base + "/account", headers={"cookie": cookie})
    assert listed.status_code == 200 and "Your account" in listed.text
