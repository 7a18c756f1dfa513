"""The registry's published contracts are what MCP clients expect."""

from __future__ import annotations

import re

import jsonschema
import pytest
from pydantic import BaseModel, ConfigDict, Field

from mcp_platform.catalogue.registry import Registry, ToolSpec
from mcp_platform.protocol.errors import ToolError
from mcp_platform.protocol.schema import input_schema


def test_every_tool_publishes_a_complete_contract(registry: Registry) -> None:
    assert len(registry) > 0
    for spec in registry:
        wire = spec.to_wire()
        assert re.fullmatch(r"[A-Za-z0-9_.-]{1,128}", wire["name"])
        assert wire["title"] and wire["description"]
        assert wire["inputSchema"]["type"] == "object"
        assert wire["inputSchema"]["additionalProperties"] is False
        assert wire["outputSchema"]["type"] == "object"
        jsonschema.Draft202012Validator.check_schema(wire["inputSchema"])
        jsonschema.Draft202012Validator.check_schema(wire["outputSchema"])
        assert set(wire["annotations"]) >= {"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}


def test_order_is_by_service_then_declaration(registry: Registry) -> None:
    services = [spec.service for spec in registry]
    assert services == sorted(services)


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")

    title: str = Field(description="A property named like a schema keyword.")
    limit: int = Field(default=10, ge=1, le=50)
    note: str | None = None


def test_input_schema_trims_titles_but_keeps_a_property_called_title() -> None:
    schema = input_schema(_Args)
    assert "title" not in schema
    assert set(schema["properties"]) == {"title", "limit", "note"}
    assert "title" not in schema["properties"]["title"]
    assert schema["properties"]["limit"] == {"default": 10, "maximum": 50, "minimum": 1, "type": "integer"}
    assert schema["properties"]["note"] == {"type": "string"}
    assert schema["required"] == ["title"]


def _spec(name: str = "x_do", **kw: object) -> ToolSpec:
    base: dict[str, object] = dict(
        name=name, service="x", title="Do", description="Does.", input_model=_Args, output_schema={"type": "object"}
    )
    base.update(kw)
    return ToolSpec(**base)  # type: ignore[arg-type]


def test_validation_error_names_the_field() -> None:
    with pytest.raises(ToolError) as info:
        _spec().validate({"title": "t", "limit": 0, "bogus": 1})
    assert info.value.code == "invalid_arguments"
    assert "limit: Input should be greater than or equal to 1" in info.value.message
    assert "bogus: Extra inputs are not permitted" in info.value.message


def test_rejects_bad_names_duplicates_and_open_inputs() -> None:
    with pytest.raises(ValueError, match="tool name"):
        _spec(name="bad name")
    with pytest.raises(ValueError, match="duplicate"):
        Registry([_spec(), _spec()])

    class Open(BaseModel):
        a: int = 1

    with pytest.raises(ValueError, match="extra='forbid'"):
        _spec(input_model=Open)


def test_price_may_depend_on_arguments() -> None:
    spec = _spec(price=lambda args: args.limit * 2)
    assert spec.billed
    assert spec.price_for(_Args(title="t", limit=3), providers_configured=False) == 6
    assert not _spec().billed


def test_a_tool_free_without_providers_costs_its_price_only_where_they_are_configured() -> None:
    spec = _spec(price=7, free_without_providers=True)
    assert spec.billed
    assert spec.price_for(_Args(title="t"), providers_configured=False) == 0
    assert spec.price_for(_Args(title="t"), providers_configured=True) == 7


def test_web_package_exports_exactly_its_lazy_names() -> None:
    from mcp_platform import web

    assert sorted(web.__all__) == sorted(web._EXPORTS)
