"""Search providers and model servers on the shared backend client (`mcp_platform.backends`).

They differ from the data APIs in two ways this module covers: their key travels in a header
(`X-API-KEY`, `x-goog-api-key`, `Authorization`), never in the URL or the cache key, and one
setting (`SEARCH_BASE_URL`, `LLM_BASE_URL`) serves whichever provider is active. Everything
else — deadline-bounded timeouts, retries of 429/503 honouring Retry-After, the polite rate, the
HTTP-failure → `ToolError` mapping of `mcp_platform.outbound.upstream` — is the backend client's. Answers
are never cached here: search keeps its own result cache, and model answers are not reusable.
"""

from __future__ import annotations

import time
from functools import cache
from typing import TYPE_CHECKING, Any

from mcp_platform.backends import Backend, BackendClient
from mcp_platform.outbound import upstream
from mcp_platform.protocol.errors import ToolError

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    import httpx


def provider_backend(name: str, label: str, env: str, default_url: str, *, timeout_s: float = 10.0) -> Backend:
    """A provider as a `Backend`: its base URL the setting `env` (else `default_url`), no response cache."""
    return Backend(name, label, env, default_url, rate_per_s=20, burst=10, cache_ttl_s=0, timeout_s=timeout_s)


def keyed_client(
    backend: Backend, origin: str, headers: Mapping[str, str], http: httpx.Client | None = None
) -> BackendClient:
    """A client of the provider at `origin` (the function's setting; empty: the public default) whose every
    request to that origin carries `headers` (the API key).

    One per backend, origin and key per container; `http` (tests: a mock transport) builds a fresh client
    instead of the shared one. Whatever the client's redirect setting, a request to any other origin
    (a redirect hop) goes without `headers`: httpx itself drops only `Authorization`.
    """
    if http is None:
        return _shared(backend, origin, tuple(sorted(headers.items())))
    http.headers.update(headers)
    hook = _home_only(backend.base_url(origin), headers)
    http.event_hooks = {**http.event_hooks, "request": [*http.event_hooks["request"], hook]}
    return BackendClient(backend, origin=origin, http=http)


@cache
def _shared(backend: Backend, origin: str, headers: tuple[tuple[str, str], ...]) -> BackendClient:
    import httpx  # with the first provider client, not at init (~20 ms of a service's cold start)

    hook = _home_only(backend.base_url(origin), dict(headers))
    client = httpx.Client(headers=dict(headers), event_hooks={"request": [hook]})
    return BackendClient(backend, origin=origin, http=client)


def _home_only(base_url: str, headers: Mapping[str, str]) -> Callable[[httpx.Request], None]:
    """A request hook (httpx runs it for every redirect hop) removing `headers` off the provider's origin."""

    import httpx

    home = httpx.URL(base_url)

    def strip(request: httpx.Request) -> None:
        if (request.url.scheme, request.url.host, request.url.port) != (home.scheme, home.host, home.port):
            for name in headers:
                request.headers.pop(name, None)

    return strip


def deadline_in(seconds: float | None) -> float | None:
    """An epoch-seconds deadline `seconds` from now, as `BackendClient` takes it (None: the client's default)."""
    return None if seconds is None else time.time() + seconds


def request_json(
    client: BackendClient,
    method: str,
    path: str,
    *,
    body: Any = None,
    params: Mapping[str, Any] | None = None,
    deadline: float | None = None,
    refused: str,
) -> Any:
    """The JSON answer of `method path`; a 401/403 names what to check (`refused`), other failures as mapped."""
    try:
        if method == "POST":
            answer = client.post(path, body, deadline=deadline)
        else:
            answer = client.get(path, params, deadline=deadline, ttl_s=0)
    except ToolError as exc:
        status = exc.extra.get("status")
        if status in (401, 403):
            raise upstream.http_failure(client.backend.label, int(status), hint=refused) from None
        raise
    return answer.data
