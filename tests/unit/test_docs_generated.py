"""Docs generated from the registry: payload contracts, catalogue, llms.txt, /.well-known/mcp."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

import jsonschema

from mcp_platform.catalogue import generated_docs
from tests.support.router import fake_registry, fake_spec

if TYPE_CHECKING:
    from mcp_platform.catalogue.registry import Registry


def _registry() -> Registry:
    return fake_registry(
        fake_spec("fake_paid", price=3, description="Echoes text. Costs 3 credits."),
        fake_spec("fake_varies", price=lambda a: a.times, price_note="1 per repetition"),
    )


def _json_blocks(markdown: str) -> list[object]:
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)\n```", markdown, re.S)]


def test_service_payload_has_four_json_blocks_per_tool_matching_the_registry() -> None:
    registry = _registry()
    text = generated_docs.service_payload(registry, "fake", "https://x.test")
    assert "**Service id:** `fake`" in text
    assert "**MCP resource:** `docs://fake/payload`" in text
    blocks = _json_blocks(text)
    specs = registry.for_service("fake")
    assert len(blocks) == 4 * len(specs)
    for i, spec in enumerate(specs):
        contract, schema, output, error = blocks[4 * i : 4 * i + 4]
        assert contract["params"]["name"] == spec.name  # type: ignore[index]
        assert schema == spec.input_schema
        assert output == spec.published_output_schema
        assert error == generated_docs.ERROR_OBJECT_SCHEMA
        jsonschema.Draft202012Validator.check_schema(output)  # type: ignore[arg-type]
    assert "**Price:** 3 credits" in text
    assert "**Price:** 1 per repetition credits" in text


def test_request_contract_uses_type_slots_never_example_data() -> None:
    contract = generated_docs.request_contract(_registry().get("fake_paid"))  # type: ignore[arg-type]
    assert contract["method"] == "tools/call"
    assert contract["params"]["arguments"] == {
        "text": "<string, required, minLength 1, maxLength 50>",
        "times": "<integer, optional, default 1, minimum 1, maximum 5>",
    }


def test_error_object_schema_accepts_the_handler_error_object() -> None:
    from mcp_platform.protocol.errors import error_object

    jsonschema.validate(error_object("x: bad", "invalid_arguments"), generated_docs.ERROR_OBJECT_SCHEMA)


def test_catalog_lists_every_tool_or_only_the_given_services() -> None:
    registry = _registry()
    full = generated_docs.catalog(registry)
    for spec in registry:
        assert f"`{spec.name}`" in full
    assert "| fake | `fake_paid` | 3 | Echoes text |" in full
    assert "| fake | `fake_varies` | 1 per repetition |" in full
    only_hello = generated_docs.catalog(registry, ["hello"])
    assert "hello_ping" in only_hello and "fake_paid" not in only_hello


def test_llms_txt_and_well_known_cover_every_service() -> None:
    registry = _registry()
    llms = generated_docs.llms_txt(registry, "https://x.test")
    assert "Endpoint: https://x.test/mcp" in llms
    assert "- `fake` (fake_paid, fake_varies): fake: tools for tests." in llms
    known = generated_docs.well_known(registry, "https://x.test", "srv", "1")
    assert known["services"] == [
        {"name": "fake", "tools": 2, "docs": "docs://fake/payload"},
        {"name": "hello", "tools": 1, "docs": "docs://hello/payload"},
    ]


def test_real_registry_docs_cover_every_service(registry: Registry) -> None:
    catalog = generated_docs.catalog(registry)
    for service in registry.services:
        payload = generated_docs.service_payload(registry, service)
        assert len(_json_blocks(payload)) == 4 * len(registry.for_service(service))
        for spec in registry.for_service(service):
            assert f"`{spec.name}`" in catalog
