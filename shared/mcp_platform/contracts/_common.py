"""What every service's contract shares: the status tool (no arguments, `{ok: true, ...}` out).

Not a service: registry discovery skips modules whose name starts with `_`.

Examples:
    >>> status_tool("fetch", title="Fetch status", description="Health and limits. Free.")
    >>> status_tool("img", title="...", description="...", output_schema=status_output_schema(
    ...     {"version": {"type": "string"}}, required=["version"]))
    >>> class QrStatus(StatusOutput):
    ...     libraries: dict[str, str]
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from mcp_platform.catalogue.registry import ToolInput, ToolSpec


# A status tool takes no arguments. (A docstring would be published as the input schema's description.)
class StatusInput(ToolInput):
    pass


STATUS_OUTPUT: dict[str, Any] = {
    "type": "object",
    "properties": {"ok": {"type": "boolean"}},
    "additionalProperties": True,
    "required": ["ok"],
}
"""The status output of seeds 002/003 (fetch_status, search_status), verbatim: `ok` and anything else."""


def status_output_schema(properties: dict[str, Any], required: list[str], *, closed: bool = True) -> dict[str, Any]:
    """`STATUS_OUTPUT` with more fields: `ok` first, then `properties`; `closed` forbids any others."""
    return {
        "type": "object",
        "properties": {**STATUS_OUTPUT["properties"], **properties},
        "required": [*STATUS_OUTPUT["required"], *required],
        "additionalProperties": not closed,
    }


# Base of a status output described as a pydantic model. (No docstring: it would become the schema's
# description.) Serialised output always carries fields with defaults, so the schema lists them as required.
class StatusOutput(BaseModel):
    model_config = ConfigDict(json_schema_serialization_defaults_required=True)

    ok: bool = True


def status_tool(
    service: str, *, title: str, description: str, output_schema: dict[str, Any] = STATUS_OUTPUT
) -> ToolSpec:
    """The free, read-only `<service>_status` tool; its output must require a boolean `ok`."""
    if "ok" not in output_schema.get("required", []) or output_schema["properties"]["ok"].get("type") != "boolean":
        raise ValueError(f"{service}_status: the output schema must require a boolean `ok`")
    return ToolSpec(
        name=f"{service}_status",
        service=service,
        title=title,
        description=description,
        input_model=StatusInput,
        output_schema=output_schema,
    )
