"""ServiceApp: from invoke payload to ServiceReply, never raising (the service side of every call)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import jsonschema
import pytest
from pydantic import BaseModel, Field

from mcp_platform.protocol.errors import ToolError
from mcp_platform.protocol.schema import output_schema
from mcp_platform.runtime.service import ServiceApp, ServiceContext, ToolOutput, lazy
from tests.support.router import FakeInput, fake_registry, fake_spec

REGISTRY = fake_registry(fake_spec("fake_a"), fake_spec("fake_b"), with_hello=False)


class Out(BaseModel):
    echo: str
    note: str | None = None


def _app(impl: Any, seen: list[ServiceContext] | None = None) -> ServiceApp:
    def record(arguments: FakeInput, ctx: ServiceContext) -> Any:
        if seen is not None:
            seen.append(ctx)
        return impl(arguments, ctx)

    return ServiceApp("fake", {"fake_a": record, "fake_b": record}, REGISTRY)


def _payload(tool: str = "fake_a", **extra: Any) -> dict[str, Any]:
    return {"tool": tool, "arguments": {"text": "hi"}, "account_id": "acct", "request_id": "r1", **extra}


def test_a_dict_result_is_the_structured_content() -> None:
    reply = _app(lambda a, _c: {"echo": a.text * a.times}).handle(_payload())
    assert reply.structured_content == {"echo": "hi"}
    assert not reply.is_error and not reply.waive_charge and reply.content == []


def test_a_model_result_is_dumped_without_nones() -> None:
    reply = _app(lambda a, _c: Out(echo=a.text)).handle(_payload())
    assert reply.structured_content == {"echo": "hi"}


class Status(BaseModel):
    sender: str | None = Field(description="null: not set")
    note: str | None = None


def test_a_required_nullable_field_stays_null_as_the_published_schema_requires() -> None:
    """email_status/shot_status answered `{}` without `from_identity`/`browser_path` when unset: schema-invalid."""
    reply = _app(lambda _a, _c: Status(sender=None)).handle(_payload())
    assert reply.structured_content == {"sender": None}
    jsonschema.Draft202012Validator(output_schema(Status)).validate(reply.structured_content)


def test_a_tool_output_carries_content_blocks_and_waive_charge() -> None:
    block = {"type": "image", "data": "aGk=", "mimeType": "image/png"}
    reply = _app(lambda _a, _c: ToolOutput({"echo": "x"}, [block], waive_charge=True)).handle(_payload())
    assert reply.content == [block] and reply.waive_charge is True


def test_arguments_are_revalidated_by_the_service() -> None:
    app = _app(lambda a, _c: {"echo": a.text})
    reply = app.handle({**_payload(), "arguments": {"text": "", "extra": 1}})
    assert reply.is_error
    assert reply.structured_content["code"] == "invalid_arguments"
    assert "text" in reply.structured_content["error"] and "extra" in reply.structured_content["error"]


def test_a_tool_error_becomes_the_error_object_with_its_code_and_extras() -> None:
    def fail(_a: FakeInput, _c: ServiceContext) -> dict[str, Any]:
        raise ToolError("text: not found upstream", "not_found", retry=False)

    reply = _app(fail).handle(_payload())
    assert reply.structured_content == {
        "error": "text: not found upstream",
        "is_error": True,
        "code": "not_found",
        "retry": False,
    }


def test_an_unexpected_exception_is_an_internal_error_without_its_message() -> None:
    def crash(_a: FakeInput, _c: ServiceContext) -> dict[str, Any]:
        raise RuntimeError("secret-detail")

    reply = _app(crash).handle(_payload())
    assert reply.structured_content["code"] == "internal"
    assert "secret-detail" not in reply.structured_content["error"]


@pytest.mark.parametrize(
    ("payload", "code"),
    [({"tool": "fake_a"}, "internal"), ({**_payload(), "surprise": 1}, "internal"), (_payload("fake_zz"), "not_found")],
)
def test_malformed_payloads_and_unknown_tools_are_error_replies(payload: dict[str, Any], code: str) -> None:
    reply = _app(lambda _a, _c: {"echo": "x"}).handle(payload)
    assert reply.is_error and reply.structured_content["code"] == code


def test_the_context_carries_account_request_and_balance() -> None:
    seen: list[ServiceContext] = []
    _app(lambda _a, _c: {"echo": "x"}, seen).handle(_payload(balance=42))
    assert seen[0].account_id == "acct" and seen[0].request_id == "r1" and seen[0].balance == 42
    assert seen[0].deadline_epoch is None and seen[0].seconds_left(7.0) == 7.0


@dataclass
class FakeLambdaContext:
    function_name: str = "svc-fake"
    memory_limit_in_mb: int = 128
    invoked_function_arn: str = "arn:aws:lambda:us-east-1:000000000000:function:svc-fake"
    aws_request_id: str = "req-1"

    def get_remaining_time_in_millis(self) -> int:
        return 10_000


def test_lambda_handler_returns_the_reply_as_json_with_a_deadline() -> None:
    seen: list[ServiceContext] = []
    app = _app(lambda _a, _c: {"echo": "x"}, seen)
    out = app.lambda_handler(_payload(balance=7), FakeLambdaContext())
    assert out == {"structured_content": {"echo": "x"}, "content": [], "waive_charge": False}
    assert seen[0].balance == 7
    assert 8.0 < seen[0].seconds_left() <= 9.0  # remaining time less a second of margin


def test_an_app_must_implement_exactly_its_declared_tools() -> None:
    with pytest.raises(ValueError, match="no implementation"):
        ServiceApp("fake", {"fake_a": lambda a, c: {}}, REGISTRY)
    with pytest.raises(ValueError, match="does not declare"):
        ServiceApp("fake", {"fake_a": lambda a, c: {}, "fake_b": lambda a, c: {}, "fake_c": lambda a, c: {}}, REGISTRY)


def test_hello_service_handler() -> None:
    from hello_service.app import app

    reply = app.handle({"tool": "hello_ping", "arguments": {"name": "  "}, "account_id": "a", "request_id": "r"})
    assert reply.structured_content["message"] == "hello, world"


def test_a_tool_error_may_carry_extras_named_message_and_error() -> None:
    """Seed 004's toolError has `message` (the text) and `error` (a machine code) beside the platform's fields."""

    def fail(_a: FakeInput, _c: ServiceContext) -> dict[str, Any]:
        raise ToolError(
            "deep needs preview", "preview_required", error="preview_required", message="deep needs preview"
        )

    assert _app(fail).handle(_payload()).structured_content == {
        "error": "preview_required",
        "is_error": True,
        "code": "preview_required",
        "message": "deep needs preview",
    }


class LongLambdaContext(FakeLambdaContext):
    """A task-capable function: its Lambda timeout is a task's (15 minutes)."""

    def get_remaining_time_in_millis(self) -> int:
        return 900_000


def test_a_synchronous_call_gets_the_service_timeout_and_a_task_the_whole_function_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mcp_platform.durable_tasks.memory import MemoryTaskStore
    from tests.integration.test_task_store import task

    monkeypatch.setenv("SERVICE_TIMEOUT_SECONDS", "25")
    seen: list[ServiceContext] = []
    app = _app(lambda _a, _c: {"echo": "x"}, seen)
    app.lambda_handler(_payload(), LongLambdaContext())
    assert 23.0 < seen[0].seconds_left() <= 24.0, "the router waits only SERVICE_TIMEOUT_SECONDS"

    store = MemoryTaskStore()
    record = task(account="acct")
    store.create(record)
    monkeypatch.setattr("mcp_platform.durable_tasks.worker.task_store", lambda _settings: store)
    out = app.lambda_handler(_payload(task_id=record.task_id), LongLambdaContext())
    assert out == {"task_id": record.task_id, "ran": True, "stored": True}
    assert seen[1].seconds_left() > 800, "a task runs as long as its function may"
    assert seen[1].in_task and not seen[0].in_task
    assert seen[1].cancelled() is False and seen[0].cancelled() is False
    stored = store.get(record.task_id)
    assert stored is not None and stored.reply == {
        "structured_content": {"echo": "x"},
        "content": [],
        "waive_charge": False,
    }


def test_the_deadline_the_router_sets_is_the_instant_the_service_sees() -> None:
    """One clock end to end: the router's deadline travels in the ServiceRequest, in epoch seconds."""
    from mcp_platform.protocol.payloads import ServiceReply, ServiceRequest
    from mcp_router.settings import RouterSettings
    from tests.support.router import ScriptedInvoker, platform

    seen: list[ServiceContext] = []
    app = _app(lambda _a, _c: {"echo": "x"}, seen)

    def service(request: ServiceRequest) -> ServiceReply:
        return ServiceReply.model_validate(app.lambda_handler(request.model_dump(mode="json"), LongLambdaContext()))

    invoker = ScriptedInvoker([service])
    rig = platform(REGISTRY, invoker, RouterSettings(router_timeout_seconds=10))
    before = time.time()
    assert rig.call("fake_a", {"text": "hi"})["structuredContent"] == {"echo": "x"}
    [(_service, sent)] = invoker.calls
    assert sent.deadline_epoch is not None
    assert seen[0].deadline_epoch == sent.deadline_epoch, "the service's own time (15 minutes) ends later"
    assert before + 6 < sent.deadline_epoch <= time.time() + 7  # the router's 10 s, less settling and the reply


def test_a_lazy_tool_is_imported_on_its_first_call_not_before(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.delitem(sys.modules, "fractions", raising=False)
    half = lazy("fractions:Fraction")
    assert "fractions" not in sys.modules
    assert str(half(1, 2)) == "1/2"  # (arguments, ctx) pass through to the function
    assert "fractions" in sys.modules
