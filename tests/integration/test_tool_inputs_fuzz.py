"""No tool input, valid or broken, gets a 500, a traceback, an `internal` error or a charge on failure.

Every tool `tools/list` publishes is called through the whole in-process platform (router, billing in
moto DynamoDB, the real service handlers as template.yaml wires them, backend APIs answering from the
recordings on loopback, the email tools' DNS on loopback) with arguments Hypothesis draws:

* `test_schema_valid_arguments`: objects the published inputSchema accepts (hypothesis-jsonschema);
* `test_broken_arguments`: a valid object broken on purpose (a wrong type, a required key missing, an
  unknown key, a 100,000-character string, deep nesting, NUL / RTL marks / emoji), or arguments that
  are not an object at all.

Each call must answer well-formed JSON-RPC with no HTTP 5xx and no -32603; a tool result is either a
success whose structuredContent the published outputSchema accepts, charged exactly the tool's price,
or an error result whose code is not `internal`, with no traceback anywhere, that cost nothing.
Examples are few per tool and derandomized, so CI runs the same inputs every time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import given

from tests.support.schema_strategies import invalid_arguments, valid_arguments
from tests.support.tool_fuzz import FUZZ, SPECS, TOOLS, balance, check_tool_result, encode, live_platform, post

if TYPE_CHECKING:
    from collections.abc import Iterator

    from tests.support.recorded_apis import RecordedApis
    from tests.support.router import Platform


@pytest.fixture(scope="module")
def live(recorded_apis_server: RecordedApis) -> Iterator[Platform]:
    with live_platform(recorded_apis_server) as plat:
        yield plat


def _call(plat: Platform, tool: str, arguments: Any) -> None:
    before = balance(plat)
    reply = post(plat, encode(tool, arguments))
    charged = before - balance(plat)
    if "error" in reply:
        # A protocol-level refusal (e.g. arguments that are not an object): never charged.
        assert charged == 0, (reply, charged)
        return
    check_tool_result(tool, arguments, reply["result"], charged)


def test_every_listed_tool_is_fuzzed() -> None:
    """The parametrization below is the listing itself: a new tool is fuzzed without touching this file."""
    assert len(TOOLS) > 100
    assert set(TOOLS) <= set(SPECS)


@pytest.mark.parametrize("tool", sorted(TOOLS))
def test_schema_valid_arguments(live: Platform, tool: str) -> None:
    @FUZZ
    @given(valid_arguments(TOOLS[tool]["inputSchema"]))
    def check(arguments: dict[str, Any]) -> None:
        _call(live, tool, arguments)

    check()


@pytest.mark.parametrize("tool", sorted(TOOLS))
def test_broken_arguments(live: Platform, tool: str) -> None:
    @FUZZ
    @given(invalid_arguments(TOOLS[tool]["inputSchema"]))
    def check(arguments: Any) -> None:
        _call(live, tool, arguments)

    check()


@pytest.mark.parametrize(
    "arguments",
    [
        pytest.param(None, id="null"),
        pytest.param([], id="list"),
        pytest.param("text", id="string"),
        pytest.param(7, id="number"),
    ],
)
def test_arguments_that_are_not_an_object(live: Platform, arguments: Any) -> None:
    _call(live, "hello_ping", arguments)
