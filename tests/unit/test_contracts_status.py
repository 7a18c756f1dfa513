"""Status tools share one declaration (contracts/_common.py): no arguments, free, `{ok: true, ...}` out."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from mcp_platform.contracts._common import STATUS_OUTPUT, status_output_schema, status_tool

if TYPE_CHECKING:
    from mcp_platform.catalogue.registry import Registry


def test_every_status_tool_takes_nothing_is_free_and_reports_ok(registry: Registry) -> None:
    status_tools = [spec for spec in registry if spec.name.endswith("_status")]
    assert {spec.service for spec in status_tools} >= {
        "fetch",
        "search",
        "docs",
        "staging",
        "img",
        "pdf",
        "qr",
        "validate",
    }
    for spec in status_tools:
        assert spec.name == f"{spec.service}_status"
        assert spec.input_schema == {"additionalProperties": False, "properties": {}, "type": "object"}, spec.name
        assert (spec.price, spec.annotations.read_only, spec.annotations.open_world) == (0, True, False), spec.name
        assert "ok" in spec.output_schema["required"], spec.name
        assert spec.output_schema["properties"]["ok"]["type"] == "boolean", spec.name


def test_web_status_tools_publish_the_seed_schema(registry: Registry) -> None:
    for name in ("fetch_status", "search_status", "docs_status"):
        assert registry.get(name).output_schema == {  # type: ignore[union-attr]
            "type": "object",
            "properties": {"ok": {"type": "boolean"}},
            "additionalProperties": True,
            "required": ["ok"],
        }


def test_extra_fields_come_after_ok_and_close_the_schema() -> None:
    schema = status_output_schema({"version": {"type": "string"}}, required=["version"])
    assert list(schema["properties"]) == ["ok", "version"]
    assert (schema["required"], schema["additionalProperties"]) == (["ok", "version"], False)
    assert STATUS_OUTPUT["required"] == ["ok"]  # the seed constant is not modified


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "properties": {"status": {"type": "string"}}, "required": ["status"]},
        {"type": "object", "properties": {"ok": {"type": "string"}}, "required": ["ok"]},
    ],
)
def test_a_status_schema_without_a_boolean_ok_is_refused(schema: dict) -> None:
    with pytest.raises(ValueError, match="must require a boolean `ok`"):
        status_tool("x", title="X status", description="Free.", output_schema=schema)
