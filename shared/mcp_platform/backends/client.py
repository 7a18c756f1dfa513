"""`BackendClient`: the one HTTP client for configured backend APIs.

One call of `get` is: the response cache (memory, then DynamoDB) → the backend's polite rate
limit → a GET within what is left of the call's deadline → retries of 429/503 that honour
`Retry-After` when the wait still fits the deadline → the cache for the backend's TTL. Every
failure leaves as a `ToolError` from `mcp_platform.outbound.upstream` (`not_found` naming what was looked
up, `upstream_unavailable` naming the backend), so tools just let it through.
"""

from __future__ import annotations

import email.utils
import time
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import cache
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from mcp_platform.backends.cache import CachedAnswer, ResponseCache, cache_key
from mcp_platform.backends.catalog import BACKENDS, Backend
from mcp_platform.backends.limiter import PoliteLimiter
from mcp_platform.outbound import upstream
from mcp_platform.protocol import json_text
from mcp_platform.runtime.observability import logger
from mcp_platform.runtime.settings import BackendSettings, SettingsError
from mcp_platform.storage.secrets import read_secret

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Mapping

    import httpx

PLATFORM_AGENT = "McpPlatform/1.0 (+https://mcp.glc-rag.hu; serverless MCP tool platform)"
"""The User-Agent of every backend request: the platform and where to reach its operators."""
DEFAULT_CALL_SECONDS = 20.0
"""The deadline of a call that did not say (local runs, tests)."""
RETRY_STATUSES = frozenset({429, 503})
MAX_ATTEMPTS = 3
_MIN_REQUEST_SECONDS = 0.25
"""A request (or a retry) is not started with less time than this left."""


@dataclass(frozen=True)
class BackendResponse:
    """An answer the caller accepted (2xx or a status it listed), fresh or from the cache."""

    backend: Backend
    status: int
    content_type: str
    body: bytes = field(repr=False)
    url: str
    """The public request URL (origin + path + query, never an API key): fit for `source`."""
    retrieved_at: str
    """When the backend sent it (ISO-8601 UTC): for a cache hit, the original fetch time."""
    from_cache: bool = False
    memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """Decoded forms of `body`, shared with the cached answer (callers must not mutate `data`)."""

    @property
    def data(self) -> Any:
        """The body as JSON (parsed once per cached answer); unreadable → `upstream_unavailable` naming the backend."""
        if "json" not in self.memo:
            try:
                self.memo["json"] = json_text.loads(self.body)
            except ValueError:
                raise upstream.bad_answer(self.backend.label, f"HTTP {self.status}, not JSON") from None
        return self.memo["json"]

    def decoded[T](self, key: str, decode: Callable[[bytes], T]) -> T:
        """`decode(body)`, computed once per cached answer under `key` (e.g. a parsed XML document).

        The key must name everything `decode` depends on besides the body; callers must not mutate the result.
        """
        if key not in self.memo:
            self.memo[key] = decode(self.body)
        return self.memo[key]  # type: ignore[no-any-return]

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


class BackendClient:
    """Calls one configured backend. Build with `backend_client(name, settings)` (one per container).

    Examples:
        >>> pubchem = backend_client("pubchem", settings())
        >>> answer = pubchem.get("/rest/pug/compound/cid/2244/property/MolecularFormula/JSON",
        ...                      what="compound with CID 2244", deadline=ctx.deadline_epoch)
        >>> answer.data["PropertyTable"]["Properties"][0]["MolecularFormula"]
        'C9H8O4'
    """

    def __init__(
        self,
        backend: Backend,
        *,
        origin: str = "",
        key_reference: str = "",
        http: httpx.Client | None = None,
        cache: ResponseCache | None = None,
        limiter: PoliteLimiter | None = None,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.backend = backend
        self.origin = origin
        """The function's setting for `backend.env` (see `Backend.base_url`)."""
        self.key_reference = key_reference
        """The function's setting for `backend.key_env`: where the optional API key is (empty: none)."""
        self._http = http or shared_http()
        self.cache = cache if cache is not None else ResponseCache("")
        self.limiter = limiter or PoliteLimiter(backend.rate_per_s, burst=backend.burst, clock=clock, sleep=sleep)
        self._clock = clock
        self._sleep = sleep

    def get(
        self,
        path: str,
        params: Mapping[str, Any] | None = None,
        *,
        what: str | None = None,
        accept: Collection[int] = (),
        deadline: float | None = None,
        ttl_s: int | None = None,
        media_type: str = "application/json",
        hint: str = "",
    ) -> BackendResponse:
        """GET `path` (the API's own documented path, starting with `/`) with `params`.

        `what` names the thing looked up ("compound named 'x'"): a 404/410 then answers
        `not_found`. `accept` lists non-2xx statuses that are answers for this API (openFDA's 404
        "no matches"); they are returned and cached like 2xx. `deadline` is in wall-clock epoch
        seconds, the clock of every deadline (`ServiceContext.deadline_epoch`); `ttl_s` overrides the
        backend's cache TTL (0: no cache).
        `hint` replaces "try again later" at the end of a failure's message (what else the caller can do).
        """
        params = dict(params or {})
        ttl = self.backend.cache_ttl_s if ttl_s is None else ttl_s
        key = cache_key(self.backend.name, "GET", path, params, media_type)
        if ttl > 0 and (hit := self.cache.get(key)) is not None:
            response = self._response(path, params, hit.status, hit.content_type, hit.body, hit.retrieved_at, True)
            return replace(response, memo=hit.memo)
        answer = self._send("GET", path, params, None, _Ask(what, accept, deadline, media_type, hint))
        if ttl > 0:
            self.cache.put(key, self.backend.name, _cached(answer, ttl))
        return answer

    def post(
        self,
        path: str,
        body: Any,
        *,
        what: str | None = None,
        accept: Collection[int] = (),
        deadline: float | None = None,
        media_type: str = "application/json",
        hint: str = "",
    ) -> BackendResponse:
        """POST a JSON `body`; never cached (a POST need not be a pure read). Arguments as `get`."""
        return self._send("POST", path, {}, body, _Ask(what, accept, deadline, media_type, hint))

    def public_url(self, path: str, params: Mapping[str, Any] | None = None) -> str:
        """The URL of `path` at the configured origin, as `source` shows it (no API key)."""
        query = urlencode({k: v for k, v in (params or {}).items() if v is not None})
        return self.backend.base_url(self.origin) + path + (f"?{query}" if query else "")

    def _send(
        self,
        method: str,
        path: str,
        params: dict[str, Any],
        body: Any,
        ask: _Ask,
    ) -> BackendResponse:
        import httpx  # here and in `shared_http`: a service's init does not load the HTTP stack (~20 ms)

        label, hint = self.backend.label, ask.hint
        url = self.backend.base_url(self.origin) + path
        deadline = ask.deadline if ask.deadline is not None else self._clock() + DEFAULT_CALL_SECONDS
        wire_params = {**params, **self._key_param()}
        headers = {"User-Agent": PLATFORM_AGENT, "Accept": ask.media_type}
        for attempt in range(1, MAX_ATTEMPTS + 1):
            if not self.limiter.acquire(deadline - _MIN_REQUEST_SECONDS):
                reason = f"cannot be asked now: our polite limit of {self.limiter.rate_per_s:g} requests/s is used up"
                raise upstream.unavailable(label, reason, hint=hint)
            remaining = deadline - self._clock()
            if remaining < _MIN_REQUEST_SECONDS:
                raise upstream.unavailable(label, "cannot be asked: this call's deadline has passed", hint=hint)
            timeout = httpx.Timeout(min(self.backend.timeout_s, remaining))
            started = time.perf_counter()
            try:
                response = self._http.request(
                    method, url, params=wire_params, json=body, headers=headers, timeout=timeout
                )
            except (httpx.HTTPError, httpx.InvalidURL) as exc:
                logger.info("backend unreachable", extra={"backend": self.backend.name, "error": type(exc).__name__})
                raise upstream.unreachable(label, exc, hint=hint) from None
            status = response.status_code
            logger.debug(
                "backend answered",
                extra={
                    "backend": self.backend.name,
                    "status": status,
                    "ms": round(1000 * (time.perf_counter() - started)),
                },
            )
            if 200 <= status < 300 or status in ask.accept:
                return self._response(
                    path, params, status, response.headers.get("content-type", ""), response.content, _now(), False
                )
            if status in RETRY_STATUSES and attempt < MAX_ATTEMPTS:
                wait = _retry_after(response.headers.get("retry-after"), attempt)
                if self._clock() + wait + _MIN_REQUEST_SECONDS <= deadline:
                    self.limiter.hold_until(self._clock() + wait)
                    continue
                raise upstream.http_failure(
                    label, status, hint=f"it asked to retry after {wait:g} s, past this call's deadline"
                )
            raise upstream.http_failure(label, status, what=ask.what, hint=hint)
        raise AssertionError("unreachable: the last attempt returns or raises")  # pragma: no cover

    def _key_param(self) -> dict[str, str]:
        if not self.key_reference:
            return {}
        what = f"the {self.backend.label} API key"
        return {self.backend.key_param: read_secret(self.key_reference, setting=self.backend.key_env, what=what)}

    def _response(
        self,
        path: str,
        params: Mapping[str, Any],
        status: int,
        content_type: str,
        body: bytes,
        retrieved_at: str,
        from_cache: bool,
    ) -> BackendResponse:
        return BackendResponse(
            backend=self.backend,
            status=status,
            content_type=content_type,
            body=body,
            url=self.public_url(path, params),
            retrieved_at=retrieved_at,
            from_cache=from_cache,
        )


@dataclass(frozen=True)
class _Ask:
    """How one request's answer is judged (see `BackendClient.get`)."""

    what: str | None
    accept: Collection[int]
    deadline: float | None
    media_type: str
    hint: str


def _cached(answer: BackendResponse, ttl_s: int) -> CachedAnswer:
    return CachedAnswer(
        status=answer.status,
        content_type=answer.content_type,
        body=answer.body,
        retrieved_at=answer.retrieved_at,
        expires_at=time.time() + ttl_s,
        memo=answer.memo,
    )


def _retry_after(value: str | None, attempt: int) -> float:
    """Seconds to wait: the header's delay-seconds or HTTP-date, else exponential backoff (0.5, 1 s)."""
    if value:
        value = value.strip()
        if value.isdigit():
            return float(value)
        try:
            moment = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            moment = None
        if moment is not None:
            moment = moment if moment.tzinfo else moment.replace(tzinfo=UTC)  # "-0000" dates parse naive
            return max(0.0, (moment - datetime.now(UTC)).total_seconds())
    return 0.5 * 2.0 ** (attempt - 1)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


@cache
def shared_http() -> httpx.Client:
    """One connection pool per container for every backend (redirects followed: origins are trusted)."""
    import httpx

    return httpx.Client(follow_redirects=True, max_redirects=3)


@cache
def shared_cache(table: str) -> ResponseCache:
    """The container's response cache in `table` (the function's `BACKEND_CACHE_TABLE`; empty: memory only)."""
    return ResponseCache(table)


def configured_origin(backend: Backend, settings: BackendSettings) -> str:
    """The function's setting for `backend`'s origin; a function whose settings lack it is a wiring mistake."""
    return _declared(settings, backend.env, backend)


def configured_key(backend: Backend, settings: BackendSettings) -> str:
    """The function's setting for where `backend`'s optional API key is; empty for a backend without a key."""
    return _declared(settings, backend.key_env, backend) if backend.key_env else ""


def _declared(settings: BackendSettings, variable: str, backend: Backend) -> str:
    field = variable.lower()
    if field not in type(settings).model_fields:
        raise SettingsError(f"{type(settings).__name__} has no {field}: declare {variable} for {backend.label}")
    return str(getattr(settings, field))


def backend_client(name: str, settings: BackendSettings) -> BackendClient:
    """The container's client for the configured backend `name` (a key of `BACKENDS`), as `settings` set it."""
    backend = BACKENDS[name]
    origin, key = configured_origin(backend, settings), configured_key(backend, settings)
    return _client(backend, origin, key, settings.backend_cache_table)


@cache
def _client(backend: Backend, origin: str, key_reference: str, table: str) -> BackendClient:
    return BackendClient(backend, origin=origin, key_reference=key_reference, cache=shared_cache(table))


def reset_clients() -> None:
    """Forget every per-container client, cache and limiter (tests change the environment)."""
    _client.cache_clear()
    shared_cache.cache_clear()
    shared_http.cache_clear()
