"""A provider's key never leaves its origin (issue 34 §5): httpx drops only `Authorization` on a
cross-origin redirect, so `X-API-KEY` or `x-goog-api-key` would reach whatever host a 3xx names."""

from __future__ import annotations

import httpx
import pytest

from mcp_platform.outbound.provider_http import keyed_client, provider_backend, request_json

BACKEND = provider_backend("keyed_test", "Keyed test provider", "KEYED_TEST_BASE_URL", "https://api.provider.test")


def _bouncing(seen: list[httpx.Request], location: str) -> httpx.Client:
    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if request.url.path == "/v1/search":
            return httpx.Response(302, headers={"location": location})
        return httpx.Response(200, json={"ok": True})

    return httpx.Client(transport=httpx.MockTransport(answer), follow_redirects=True)


@pytest.mark.parametrize("header", ["X-API-KEY", "x-goog-api-key", "Authorization"])
def test_a_redirect_to_another_origin_never_carries_the_key(header: str) -> None:
    seen: list[httpx.Request] = []
    client = keyed_client(BACKEND, "", {header: "secret-key"}, _bouncing(seen, "https://elsewhere.test/collect"))
    assert request_json(client, "GET", "/v1/search", refused="the key") == {"ok": True}
    first, hop = seen
    assert first.headers.get(header) == "secret-key"
    assert hop.url.host == "elsewhere.test" and header.lower() not in {k.lower() for k in hop.headers}


def test_a_redirect_within_the_origin_keeps_the_key() -> None:
    seen: list[httpx.Request] = []
    client = keyed_client(BACKEND, "", {"X-API-KEY": "secret-key"}, _bouncing(seen, "https://api.provider.test/v2/s"))
    request_json(client, "GET", "/v1/search", refused="the key")
    assert [r.headers.get("x-api-key") for r in seen] == ["secret-key", "secret-key"]
