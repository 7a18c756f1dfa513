"""Drive the router's gateway in tests: an in-memory platform, request builders, scripted services.

`platform()` wires `Gateway(Dependencies(...))` to the in-memory stores with one
account and key; `Platform.post()` sends one `POST /mcp` and returns the
`HttpResponse`; `body()` decodes its JSON. Fake tools (`fake_spec`) and a
`ScriptedInvoker` let billing tests decide exactly what a service answers.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson
from pydantic import BaseModel, ConfigDict, Field

from mcp_platform.auth.accounts import AccountAdmin, SignupDesk
from mcp_platform.auth.dynamodb import DynamoSignupStore
from mcp_platform.auth.memory import MemoryAccountStore, MemorySignupStore
from mcp_platform.billing.usage import DynamoLedgerHistory
from mcp_platform.catalogue.registry import Annotations, Registry, ToolSpec, load_registry
from mcp_platform.durable_tasks.worker import run_task
from mcp_platform.protocol.errors import error_object
from mcp_platform.protocol.mcp import CLIENT_CAPABILITIES_META, PROTOCOL_VERSION_META
from mcp_platform.protocol.payloads import ServiceReply, ServiceRequest
from mcp_platform.ratelimit.limiter import MemoryRateLimiter
from mcp_router.auth import KeyAuthenticator
from mcp_router.dependencies import Dependencies
from mcp_router.gateway import Gateway
from mcp_router.http import HttpRequest, HttpResponse
from mcp_router.settings import RouterSettings
from tests.support import ledgers
from tests.support.clock import Clock
from tests.support.dynamo import TABLE_ENV

if TYPE_CHECKING:
    from mcp_platform.auth.store import AccountStore
    from mcp_platform.billing.lifecycle import CallLedger
    from mcp_platform.durable_tasks.store import TaskStore
    from mcp_platform.oauth.grants import GrantStore
    from mcp_router.invoker import Invoker

MODERN = "2026-07-28"
JSON_HEADERS = {"content-type": "application/json", "accept": "application/json, text/event-stream"}


class FakeInput(BaseModel):
    """Input of every fake tool: one required bounded field, one optional."""

    model_config = ConfigDict(extra="forbid")

    text: str = Field(min_length=1, max_length=50, description="Something to echo.")
    times: int = Field(default=1, ge=1, le=5, description="How often.")


FAKE_OUTPUT = {
    "type": "object",
    "properties": {"echo": {"type": "string"}},
    "required": ["echo"],
    "additionalProperties": False,
}


def fake_spec(name: str, service: str = "fake", **kw: Any) -> ToolSpec:
    """A tool of `service` taking `FakeInput`; `kw` sets price, needs_balance, preview…"""
    base: dict[str, Any] = dict(
        name=name,
        service=service,
        title=name.replace("_", " "),
        description=f"{name}: a fake tool for router tests.",
        input_model=FakeInput,
        output_schema=FAKE_OUTPUT,
        annotations=Annotations(read_only=False, open_world=True),
    )
    base.update(kw)
    return ToolSpec(**base)


def fake_registry(*specs: ToolSpec, with_hello: bool = True) -> Registry:
    """`specs` plus, by default, the real hello contract (so InProcessInvoker tests can mix both)."""
    real = [s for s in load_registry() if s.service == "hello"] if with_hello else []
    return Registry([*real, *specs], {"fake": "fake: tools for tests.", "hello": "hello: smoke test."})


Step = ServiceReply | Exception | Callable[[ServiceRequest], ServiceReply]


@dataclass
class ScriptedInvoker:
    """Answers each invoke with the next scripted step (the last one repeats); records every request."""

    steps: list[Step] = field(default_factory=list)
    calls: list[tuple[str, ServiceRequest]] = field(default_factory=list)
    timeouts: list[float | None] = field(default_factory=list)

    started: list[tuple[str, ServiceRequest]] = field(default_factory=list)
    """Tasks handed over by `start`, not yet run: a test decides when the worker runs (`run_tasks`)."""

    def invoke(self, service: str, request: ServiceRequest, *, timeout_s: float | None = None) -> ServiceReply:
        self.calls.append((service, request))
        self.timeouts.append(timeout_s)
        step = self.steps[min(len(self.calls), len(self.steps)) - 1] if self.steps else echo(request)
        if isinstance(step, Exception):
            raise step
        return step(request) if callable(step) else step

    def start(self, service: str, request: ServiceRequest) -> None:
        """Lambda's asynchronous invoke: accepted now, run later."""
        self.started.append((service, request))

    def run_tasks(self, store: TaskStore, ends_by: float = 0.0) -> list[dict[str, Any]]:
        """Run every started task as the service's worker does (`run_task`); what each worker returned.

        `ends_by`: when the worker would stop at the latest (epoch s; default: before any deadline).
        """
        pending, self.started = self.started, []
        return [
            run_task(request, lambda r=request, s=service: self.invoke(s, r), store, ends_by)
            for service, request in pending
        ]


OK = ServiceReply(structured_content={"echo": "done"})
"""A scripted service's success (see `ScriptedInvoker`)."""
FAILED = ServiceReply(structured_content=error_object("backend down", "upstream_unavailable"))
"""A scripted service's error result: refunded, retryable."""


def echo(request: ServiceRequest) -> ServiceReply:
    return ServiceReply(structured_content={"echo": request.arguments["text"] * request.arguments.get("times", 1)})


@dataclass
class Platform:
    gateway: Gateway
    deps: Dependencies
    store: AccountStore
    ledger: CallLedger
    limiter: MemoryRateLimiter
    admin: AccountAdmin
    invoker: Invoker
    account_id: str
    key: str
    signups: SignupDesk

    def request(
        self,
        body: Any,
        headers: Mapping[str, str] | None = None,
        *,
        method: str = "POST",
        path: str = "/mcp",
        key: str | None = "default",
        query: str = "",
    ) -> HttpResponse:
        """One HTTP request; `body` is JSON-encoded unless bytes; `key=None` sends no key; `query` is the URL's."""
        raw = body if isinstance(body, bytes) else orjson.dumps(body)
        all_headers = {**JSON_HEADERS}
        if key is not None:
            all_headers["authorization"] = f"Bearer {self.key if key == 'default' else key}"
        all_headers.update(headers or {})
        return self.gateway.handle(HttpRequest(method, path, all_headers, raw, query=query))

    def post(self, body: Any, headers: Mapping[str, str] | None = None, **kw: Any) -> HttpResponse:
        return self.request(body, headers, **kw)

    def rpc(self, method: str, params: dict[str, Any] | None = None, **kw: Any) -> dict[str, Any]:
        """A legacy-era request that must answer 200 with a result; returns the result."""
        response = self.post(message(method, params), **kw)
        assert response.status == 200, (response.status, response.body)
        reply = body(response)
        assert "result" in reply, reply
        return reply["result"]

    def modern(
        self, method: str, params: dict[str, Any] | None = None, name: str | None = None, query: str = ""
    ) -> HttpResponse:
        """A 2026-07-28 request with consistent headers and `_meta`."""
        return self.post(message(method, with_meta(params)), modern_headers(method, name), query=query)

    def call(
        self, tool: str, arguments: Any = None, headers: Mapping[str, str] | None = None, rpc_id: Any = 1
    ) -> dict[str, Any]:
        """`tools/call` (legacy era): the tool result."""
        params: dict[str, Any] = {"name": tool}
        if arguments is not None:
            params["arguments"] = arguments
        response = self.post(message("tools/call", params, rpc_id), headers)
        assert response.status == 200, (response.status, response.body)
        return body(response)["result"]


def platform(
    registry: Registry | None = None,
    invoker: Invoker | None = None,
    settings: RouterSettings | None = None,
    services: Iterable[str] | None = None,
    credits: int = 100,
    clock: Clock | None = None,
    adapter: str = "memory",
    task_store: TaskStore | None = None,
    grants: GrantStore | None = None,
) -> Platform:
    """An in-memory platform with one account (approved for `services`, default all) and one key.

    With `clock`, deadlines, rate-limit windows and idempotent waits run on it (a wait moves it);
    `adapter="dynamodb"` keeps accounts and credits in DynamoDB (moto must be active: the `aws` fixture);
    with `grants`, the router accepts the access tokens that store holds.
    """
    registry = registry or load_registry()
    if invoker is None:
        from localdev.invoker import InProcessInvoker

        invoker = InProcessInvoker()
    settings = settings or RouterSettings()
    stores = ledgers.make(adapter)
    # Without a clock, the rate-limit windows are those of the moment the platform is made: a test
    # that runs across a minute (or hour) boundary must not find its window emptied half way.
    window_clock = clock or Clock(time.time())
    store, ledger, limiter = stores.store, stores.ledger, MemoryRateLimiter(window_clock)
    admin = AccountAdmin(store, ledger)
    approved = frozenset(registry.services if services is None else services)
    account = admin.create_account("tester", approved, credits, account_id="acct_test")
    key = admin.issue_key(account.account_id)
    signup_store = (
        MemorySignupStore(store)
        if isinstance(store, MemoryAccountStore)
        else DynamoSignupStore(stores.ddb, TABLE_ENV["ACCOUNTS_TABLE"], TABLE_ENV["SIGNUPS_TABLE"])
    )
    signups = SignupDesk(
        admin, signup_store, settings.signup_mode, frozenset(registry.services), settings.welcome_credits
    )
    deps = Dependencies(
        registry=registry,
        authenticator=KeyAuthenticator(store, settings.key_cache_seconds, grants=grants),
        ledger=ledger,
        limiter=limiter,
        invoker=invoker,
        settings=settings,
        signups=signups,
        signup_limiter=MemoryRateLimiter(window_clock, window_seconds=3600),
        history=None if stores.ddb is None else DynamoLedgerHistory(stores.ddb, TABLE_ENV["LEDGER_TABLE"]),
        **({"clock": clock, "sleep": clock.sleep} if clock else {}),
        task_store=task_store,
    )
    return Platform(Gateway(deps), deps, store, ledger, limiter, admin, invoker, account.account_id, key, signups)


def message(method: str, params: dict[str, Any] | None = None, rpc_id: Any = 1) -> dict[str, Any]:
    msg: dict[str, Any] = {"jsonrpc": "2.0", "id": rpc_id, "method": method}
    if params is not None:
        msg["params"] = params
    return msg


def notification(method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    msg = message(method, params)
    del msg["id"]
    return msg


def with_meta(params: dict[str, Any] | None, version: str = MODERN) -> dict[str, Any]:
    meta = {PROTOCOL_VERSION_META: version, CLIENT_CAPABILITIES_META: {}}
    return {**(params or {}), "_meta": meta}


def modern_headers(method: str, name: str | None = None) -> dict[str, str]:
    headers = {"mcp-protocol-version": MODERN, "mcp-method": method}
    if name is not None:
        headers["mcp-name"] = name
    return headers


def body(response: HttpResponse) -> Any:
    assert response.headers.get("content-type") == "application/json", response.headers
    return orjson.loads(response.body)


def assert_rpc_error(response: HttpResponse, status: int, code: int, rpc_id: Any = None) -> dict[str, Any]:
    """The response is `status` with a JSON-RPC error body of `code` for `rpc_id`; returns the error."""
    assert response.status == status, (response.status, response.body)
    reply = body(response)
    assert reply["jsonrpc"] == "2.0"
    assert reply["id"] == rpc_id
    assert "result" not in reply
    assert reply["error"]["code"] == code, reply
    assert isinstance(reply["error"]["message"], str) and reply["error"]["message"]
    return reply["error"]


def structured_text_matches(result: dict[str, Any]) -> None:
    """Seed 000: content[0] is the text JSON of structuredContent; isError mirrors is_error."""
    assert result["content"][0]["type"] == "text"
    assert orjson.loads(result["content"][0]["text"]) == result["structuredContent"]
    assert result["isError"] is (result["structuredContent"].get("is_error") is True)
