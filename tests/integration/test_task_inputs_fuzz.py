"""No task-augmented call, valid or broken, gets a 500, a traceback, an `internal` error or a wrong charge.

Every tool `tools/list` publishes with `execution.taskSupport` optional or required is called with
`params.task` (MCP 2025-11-25) through the platform test_tool_inputs_fuzz uses (tests/support/tool_fuzz.py):
the task runs in its service's real handler on the in-process invoker's worker thread, as `make dev`
runs it, and is polled with tasks/get until it ends, then read with tasks/result, twice. Arguments are
drawn as there (schema-valid, or broken on purpose), with a `params.task` whose ttl may be odd.

Every answer, at creation and to every poll, is well-formed JSON-RPC with no HTTP 5xx and no -32603.
A creation is either a working task with the tool's price reserved, or the plain error result of a
call refused before it became a task, which reserved nothing. An ended task's result holds to what a
synchronous call's does (a success the outputSchema accepts, charged exactly its price; an error with
a registered code other than `internal`, that cost nothing), its tasks/get status says which, and
reading it again answers the same and charges nothing more. Examples are few and derandomized.

Drawn arguments seldom make a tool succeed, so a few that do (spoken words, a long text file) conclude
billed tasks on every run; and every other listed tool refuses `params.task`, free.
"""

from __future__ import annotations

import base64
import time
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from mcp_platform.durable_tasks.model import MAX_TTL_MS, MIN_TTL_MS
from mcp_platform.protocol.jsonrpc import METHOD_NOT_FOUND
from mcp_router.task_methods import RELATED_TASK_META
from tests.support.router import message
from tests.support.schema_strategies import invalid_arguments, valid_arguments
from tests.support.tool_fuzz import FUZZ, TOOLS, balance, check_tool_result, encode, list_price, live_platform, post
from voice_support import speech_wav

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from tests.support.recorded_apis import RecordedApis
    from tests.support.router import Platform

TASK_TOOLS = sorted(
    name for name, tool in TOOLS.items() if tool.get("execution", {}).get("taskSupport") in ("optional", "required")
)
TASK_FUZZ = settings(FUZZ, max_examples=4, phases=(Phase.explicit, Phase.generate))
"""A failing example is reported as drawn, not shrunk: every shrink step runs a whole task, minutes in all."""
TASK_PARAMS = st.sampled_from(
    [{}, {"ttl": 120_000}, {"ttl": 0}, {"ttl": -1}, {"ttl": 10**15}, {"ttl": 90_000.5}, {"ttl": "1h"}, {"ttl": True}]
)
"""`params.task` as clients send it, and with a ttl the router must clamp or ignore (never one that ends the task
before it is read: the shortest it grants is a minute)."""
WAIT_S = 60.0
"""Longest a task may work here; the tools answer from recordings and offline engines in seconds."""


@pytest.fixture(scope="module")
def live(recorded_apis_server: RecordedApis) -> Iterator[Platform]:
    with live_platform(recorded_apis_server) as plat:
        yield plat


def _rpc(plat: Platform, method: str, task_id: str) -> dict[str, Any]:
    """A task method on the caller's own task: it must answer a result."""
    reply = post(plat, message(method, {"taskId": task_id}))
    assert "result" in reply, reply
    result: dict[str, Any] = reply["result"]
    return result


def _until_ended(plat: Platform, task_id: str) -> str:
    """Poll tasks/get (faster than pollInterval advises) until the task ends; its status."""
    give_up = time.monotonic() + WAIT_S
    while (task := _rpc(plat, "tasks/get", task_id))["status"] == "working":
        assert time.monotonic() < give_up, f"{task_id} still working after {WAIT_S} s: {task}"
        time.sleep(0.02)
    assert task["taskId"] == task_id and task["status"] in ("completed", "failed"), task
    return str(task["status"])


def _task_call(plat: Platform, tool: str, arguments: Any, task: dict[str, Any]) -> None:
    before = balance(plat)
    reply = post(plat, encode(tool, arguments, task=task))
    if "error" in reply:
        assert balance(plat) == before, reply  # a protocol-level refusal: nothing reserved
        return
    created = reply["result"]
    if "task" not in created:
        # Refused before it became a task (arguments the tool does not take): the plain error result.
        assert created.get("isError") is True, created
        check_tool_result(tool, arguments, created, before - balance(plat))
        return
    task_id = created["task"]["taskId"]
    assert created["task"]["status"] == "working", created
    assert MIN_TTL_MS <= created["task"]["ttl"] <= MAX_TTL_MS, created
    assert before - balance(plat) == list_price(tool, arguments), "the price is reserved when the task starts"

    status = _until_ended(plat, task_id)
    result = _rpc(plat, "tasks/result", task_id)
    charged = before - balance(plat)
    assert result["_meta"][RELATED_TASK_META] == {"taskId": task_id}, result
    # 2025-11-25 has a tool result with isError end as status `failed`.
    assert status == ("failed" if result["isError"] else "completed"), (status, result)
    check_tool_result(tool, arguments, result, charged)

    assert _rpc(plat, "tasks/result", task_id) == result, "read again, the result is the same"
    assert _rpc(plat, "tasks/get", task_id)["status"] == status
    assert before - balance(plat) == charged, "reading an ended task again charges nothing more"


def _staged(plat: Platform, data: bytes, media_type: str) -> str:
    """The staging id of `data`, uploaded with staging_upload as a caller does."""
    uploaded = plat.call(
        "staging_upload", {"content_base64": base64.b64encode(data).decode(), "media_type": media_type}
    )
    assert uploaded["isError"] is False, uploaded
    return str(uploaded["structuredContent"]["id"])


SENTENCE = "one two three four five"
LONG_TEXT = ("lorem ipsum dolor sit amet " * 6_000)[:145_000].encode()
SUCCEEDING: list[Any] = [
    # Speech: a transcript of noise (a tenth of a second of DC, say) is free, so it would charge nothing.
    pytest.param(
        "whisper_transcribe", lambda plat: {"audio": base64.b64encode(speech_wav(SENTENCE)).decode()}, id="whisper"
    ),
    # A reply this large once stuck its task in `working` (the reply and its result overflowed one DynamoDB item).
    pytest.param(
        "docs_extract",
        lambda plat: {"staging_id": _staged(plat, LONG_TEXT, "text/plain"), "max_length": 1_000_000},
        id="docs-145KB",
    ),
]


def test_task_capable_tools_are_listed() -> None:
    """The parametrization below is the listing itself: a tool that turns task-capable is fuzzed as a task too."""
    assert TASK_TOOLS, "no listed tool publishes execution.taskSupport"


@pytest.mark.parametrize("tool", TASK_TOOLS)
def test_schema_valid_arguments_as_a_task(live: Platform, tool: str) -> None:
    @TASK_FUZZ
    @given(valid_arguments(TOOLS[tool]["inputSchema"]), TASK_PARAMS)
    def check(arguments: dict[str, Any], task: dict[str, Any]) -> None:
        _task_call(live, tool, arguments, task)

    check()


@pytest.mark.parametrize("tool", TASK_TOOLS)
def test_broken_arguments_as_a_task(live: Platform, tool: str) -> None:
    @TASK_FUZZ
    @given(invalid_arguments(TOOLS[tool]["inputSchema"]), TASK_PARAMS)
    def check(arguments: Any, task: dict[str, Any]) -> None:
        _task_call(live, tool, arguments, task)

    check()


@pytest.mark.parametrize(("tool", "arguments"), SUCCEEDING)
def test_a_task_that_succeeds_is_charged_its_price_once(
    live: Platform, tool: str, arguments: Callable[[Platform], dict[str, Any]]
) -> None:
    """Drawn arguments seldom make a tool succeed (a random URL or staging id is refused); these do, so every
    run concludes billed tasks through the real services, one with a result too large to stay in the task's item."""
    args = arguments(live)
    before = balance(live)
    _task_call(live, tool, args, {"ttl": 120_000})
    assert before - balance(live) == list_price(tool, args) > 0


def test_a_tool_without_task_support_refuses_a_task_free(live: Platform) -> None:
    """The listing's taskSupport is what the router does: every other tool refuses `params.task` (-32601)."""
    for tool in sorted(set(TOOLS) - set(TASK_TOOLS)):
        before = balance(live)
        reply = post(live, encode(tool, {}, task={}))
        assert reply.get("error", {}).get("code") == METHOD_NOT_FOUND, (tool, reply)
        assert balance(live) == before, tool
