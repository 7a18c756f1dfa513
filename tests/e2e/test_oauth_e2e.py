"""MCP authorization end to end: the official SDK's OAuthClientProvider against `make dev`, consent in Chromium.

The SDK discovers the authorization server from the router's 401 (RFC 9728), registers
(RFC 7591), sends the person to /authorize with PKCE S256 and a resource indicator; headless
Chromium (Debian's, as the shot service uses) signs in with the dev key and allows; the SDK
checks `iss` (RFC 9207), exchanges the code and then lists tools and makes a billed call
with the access token. Screenshots of each page are kept in test-artifacts/oauth/.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

import httpx2
import pytest
from mcp import Client
from mcp.client.auth import OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthClientMetadata, OAuthToken

if TYPE_CHECKING:
    from tests.e2e.conftest import LocalServer

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "oauth"
REDIRECT = "http://127.0.0.1:9/oauth-callback"
"""Never reached over the network: the browser's request to it is intercepted and its query read."""
CHROMIUM_ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]


class MemoryStorage:
    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


class BrowserConsent:
    """The person: opens the authorization URL in Chromium, signs in with the key, allows."""

    def __init__(self, api_key: str, decision: str = "Allow") -> None:
        self._key = api_key
        self._decision = decision
        self.callback: dict[str, list[str]] = {}

    async def redirect(self, authorization_url: str) -> None:
        from playwright.async_api import async_playwright

        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            page = await browser.new_page()

            async def capture(route: Any) -> None:
                self.callback = parse_qs(urlsplit(route.request.url).query)
                await route.fulfill(status=200, body="done")

            await page.route(REDIRECT + "*", capture)
            await page.goto(authorization_url)
            await page.screenshot(path=ARTIFACTS / "1-sign-in.png", full_page=True)
            await page.get_by_label("API key of your account").fill(self._key)
            await page.get_by_role("button", name="Sign in").click()
            await page.get_by_role("button", name=self._decision).wait_for()
            await page.screenshot(path=ARTIFACTS / "2-consent.png", full_page=True)
            await page.get_by_role("button", name=self._decision).click()
            await page.wait_for_url(REDIRECT + "*")
            await browser.close()

    async def callback_result(self) -> AuthorizationCodeResult:
        return AuthorizationCodeResult(
            code=self.callback["code"][0], state=self.callback["state"][0], iss=self.callback["iss"][0]
        )


def _provider(server: LocalServer, consent: BrowserConsent, storage: MemoryStorage) -> OAuthClientProvider:
    metadata = OAuthClientMetadata(
        client_name="e2e <b>SDK</b> client",
        redirect_uris=[REDIRECT],  # type: ignore[list-item]
        grant_types=["authorization_code", "refresh_token"],
        response_types=["code"],
        token_endpoint_auth_method="none",
    )
    return OAuthClientProvider(server.url, metadata, storage, consent.redirect, consent.callback_result)


@pytest.mark.anyio
async def test_sdk_client_authorizes_in_the_browser_then_lists_and_calls(local_server: LocalServer) -> None:
    storage = MemoryStorage()
    consent = BrowserConsent(local_server.api_key)
    auth = _provider(local_server, consent, storage)
    async with httpx2.AsyncClient(auth=auth, timeout=60) as http:
        async with Client(streamable_http_client(local_server.url, http_client=http)) as client:
            names = [t.name for t in (await client.list_tools()).tools]
            assert "compound_search" in names  # the first page of every tool the dev account may use
            result = await client.call_tool("validate_iban", {"iban": "DE89370400440532013000"})
            assert result.is_error is False, result.structured_content
            assert result.structured_content["credits_charged"] >= 1
    assert consent.callback["iss"] == [local_server.base + "/"]
    assert storage.tokens is not None and storage.tokens.access_token.startswith("mcpat_")
    assert (ARTIFACTS / "2-consent.png").stat().st_size > 0

    # refresh: the rotated pair works, the old refresh token is refused and revokes the grant
    token_url = local_server.base + "/token"
    client_id = storage.client.client_id if storage.client else ""
    old_refresh = storage.tokens.refresh_token
    async with httpx2.AsyncClient() as plain:
        form = {"grant_type": "refresh_token", "refresh_token": old_refresh, "client_id": client_id}
        rotated = await plain.post(token_url, data=form)
        assert rotated.status_code == 200, rotated.text
        fresh = rotated.json()
        mcp_headers = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
        ping = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}

        async def status_with(token: str) -> int:
            auth_header = {"authorization": f"Bearer {token}"}
            return (await plain.post(local_server.url, json=ping, headers={**mcp_headers, **auth_header})).status_code

        assert await status_with(fresh["access_token"]) == 200
        # revocation (RFC 7009): the access token stops working (the router caches a credential at most
        # KEY_CACHE_SECONDS; a revoked token is refused once that passes)
        revoked = await plain.post(
            local_server.base + "/revoke",
            data={"token": fresh["refresh_token"], "client_id": client_id, "client_secret": ""},
        )
        assert revoked.status_code == 200, revoked.text
        again = await plain.post(token_url, data={**form, "refresh_token": fresh["refresh_token"]})
        assert again.status_code == 400 and again.json()["error"] == "invalid_grant"
