"""hello: the platform's smoke-test service (free, no backend)."""

from __future__ import annotations

from pydantic import Field

from mcp_platform.catalogue.registry import ToolInput, ToolSpec


class PingInput(ToolInput):
    name: str | None = Field(default=None, max_length=200, description="Who to greet; blank means the world.")


TOOLS = [
    ToolSpec(
        name="hello_ping",
        service="hello",
        title="Hello ping",
        description="Answers 'hello, <name>' with the server's UTC time. Free; use it to check that "
        "your key and connection work.",
        input_model=PingInput,
        output_schema={
            "type": "object",
            "properties": {"message": {"type": "string"}, "ts": {"type": "string", "format": "date-time"}},
            "required": ["message", "ts"],
            "additionalProperties": False,
        },
    ),
]
