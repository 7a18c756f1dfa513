"""The router's own tools: `tools_search` (listed on every connection) and `tools_call` (with `?profile=discover`).

Neither is a service's tool: they are answered here, from the registry, and
are not in it (so `/health`, docs and billing count the services' tools only).
`tools_search` is free. `tools_call {name, arguments}` is not a second call
path: `Methods.tools_call` unwraps it into the `tools/call` it stands for, so
validation, price, ledger entry, Idempotency-Key and tasks are those of calling
the tool directly.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any

from pydantic import Field

from mcp_platform.catalogue.registry import Annotations, ToolInput, ToolSpec
from mcp_platform.protocol.errors import ErrorCode, ToolError
from mcp_platform.protocol.mcp import tool_result
from mcp_platform.protocol.payloads import ServiceReply

if TYPE_CHECKING:
    from mcp_platform.catalogue.profiles import Profile
    from mcp_platform.catalogue.registry import Registry
    from mcp_platform.catalogue.tool_search import ToolIndex
    from mcp_router.context import RequestContext
    from mcp_router.tool_calls import ToolCaller

SERVICE = "platform"


class SearchInput(ToolInput):
    query: str = Field(min_length=1, max_length=500, description="What you want to do, in plain words.")
    limit: int = Field(default=5, ge=1, le=20, description="How many tools to return, best first.")


class CallInput(ToolInput):
    name: str = Field(min_length=1, max_length=128, description="The tool's name, as tools_search gave it.")
    arguments: dict[str, Any] = Field(default_factory=dict, description="The tool's arguments (its inputSchema).")


TOOLS_SEARCH = ToolSpec(
    name="tools_search",
    service=SERVICE,
    title="Find a tool",
    description=(
        "Finds the tools for a task described in plain words, best first, each with its name, price and "
        "inputSchema, so you can call it next. Free."
    ),
    input_model=SearchInput,
    output_schema={
        "type": "object",
        "properties": {
            "results": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string"},
                        "title": {"type": "string"},
                        "service": {"type": "string"},
                        "summary": {"type": "string"},
                        "price": {"type": "string"},
                        "inputSchema": {"type": "object"},
                        "score": {"type": "number"},
                    },
                    "required": ["name", "title", "service", "summary", "price", "inputSchema", "score"],
                },
            }
        },
        "required": ["results"],
    },
)
TOOLS_CALL = ToolSpec(
    name="tools_call",
    service=SERVICE,
    title="Call a tool",
    description=(
        "Runs any tool of this server by name, exactly as calling it directly: same arguments, result and "
        "price. Use tools_search to find the tool and its inputSchema."
    ),
    input_model=CallInput,
    output_schema={"type": "object", "description": "The called tool's own result."},
    annotations=Annotations(read_only=False, open_world=True, idempotent=False),
)
META_TOOLS = {spec.name: spec for spec in (TOOLS_SEARCH, TOOLS_CALL)}


class MetaTools:
    def __init__(self, registry: Registry, caller: ToolCaller) -> None:
        self._registry = registry
        self._caller = caller

    @cached_property
    def _index(self) -> ToolIndex:
        """Built on first search from the registry itself (a few ms), so it lists exactly what tools/list does.

        The search modules load here too: a cold start that never searches does not import them.
        """
        from mcp_platform.catalogue.tool_search import ToolIndex
        from mcp_router.tool_embedding import wordllama

        return ToolIndex(self._registry, self._registry.descriptions, embedding=wordllama())

    @staticmethod
    def listed(profile: Profile) -> list[ToolSpec]:
        """The meta-tools a connection lists, after its other tools (if any)."""
        return [TOOLS_SEARCH, TOOLS_CALL] if profile.discover else [TOOLS_SEARCH]

    def search(self, ctx: RequestContext, raw_arguments: Any) -> dict[str, Any]:
        """`tools_search`: the best tools this connection may call, as a tool result (free, never billed).

        Raises `ToolError` for invalid arguments (`refused` makes that the error result).
        """
        from mcp_platform.catalogue.tool_search import summary

        arguments = TOOLS_SEARCH.validate(raw_arguments)
        assert isinstance(arguments, SearchInput)
        allowed = frozenset(spec.name for spec in self._registry if self._caller.callable(spec, ctx))
        hits = self._index.search(arguments.query, arguments.limit, allowed)
        results = [
            {
                "name": hit.spec.name,
                "title": hit.spec.title,
                "service": hit.spec.service,
                "summary": summary(hit.spec.description),
                "price": hit.spec.price_label,
                "inputSchema": hit.spec.input_schema,
                "score": hit.score,
            }
            for hit in hits
        ]
        return tool_result(ServiceReply(structured_content={"results": results}))


def unwrap(params: dict[str, Any]) -> dict[str, Any]:
    """The `tools/call` params a `tools_call` call stands for; `ToolError` when its own arguments are wrong."""
    arguments = TOOLS_CALL.validate(params.get("arguments"))
    assert isinstance(arguments, CallInput)
    if arguments.name in META_TOOLS:
        raise ToolError(f"tools_call runs the server's tools, not {arguments.name}", ErrorCode.INVALID_ARGUMENTS)
    return {**params, "name": arguments.name, "arguments": arguments.arguments}


def refused(exc: ToolError) -> dict[str, Any]:
    """A meta-tool's own invalid arguments, as the error result any tool answers (uncharged)."""
    return tool_result(ServiceReply(structured_content=exc.to_object()))
