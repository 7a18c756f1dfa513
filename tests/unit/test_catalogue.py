"""The catalogue artefact the router loads: current, equivalent to the registry, and safe when stale."""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING

import pytest

from mcp_platform.catalogue.artefact import ARTEFACT, CataloguedTool, generate, load_catalogue
from mcp_platform.catalogue.registry import Registry, load_registry
from mcp_platform.protocol.errors import ToolError

if TYPE_CHECKING:
    from pathlib import Path


def test_the_committed_artefact_is_regenerated() -> None:
    assert ARTEFACT.read_text(encoding="utf-8") == generate(), "run scripts/gen_catalogue.py"


def test_catalogued_tools_publish_and_price_as_the_contracts_do() -> None:
    live, catalogued = load_registry(), load_catalogue()
    assert [spec.name for spec in catalogued] == [spec.name for spec in live]
    assert catalogued.descriptions == live.descriptions
    for spec in catalogued:
        assert isinstance(spec, CataloguedTool)
        twin = live.get(spec.name)
        assert twin is not None
        assert spec.to_wire() == twin.to_wire()
        assert (spec.price_label, spec.billed, spec.needs_balance, spec.preview, spec.task_support) == (
            twin.price_label,
            twin.billed,
            twin.needs_balance,
            twin.preview,
            twin.task_support,
        )


def test_a_tool_imports_its_contract_on_its_first_call_only() -> None:
    tool = load_catalogue().get("research_brief")
    assert isinstance(tool, CataloguedTool)
    tool.to_wire()
    assert "_contract" not in tool.__dict__  # listing it needs no contract
    arguments = tool.validate({"query": "Which enzymes does curcumin inhibit?", "depth": "quick"})
    assert "_contract" in tool.__dict__
    live = load_registry(["research"]).get("research_brief")
    assert live is not None
    for configured in (False, True):
        assert tool.price_for(arguments, providers_configured=configured) == live.price_for(
            arguments, providers_configured=configured
        )
    with pytest.raises(ToolError, match="invalid arguments for research_brief"):
        tool.validate({"depth": "quick", "surprise": 1})


@pytest.mark.parametrize("artefact", ["stale", "missing"])
def test_a_stale_or_missing_artefact_falls_back_to_the_contracts(
    artefact: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "catalogue.json"
    if artefact == "stale":
        document = json.loads(ARTEFACT.read_text(encoding="utf-8"))
        path.write_text(json.dumps({**document, "fingerprint": "an older contract"}), encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="mcp_platform.catalogue.artefact"):
        registry = load_catalogue(path)
    assert isinstance(registry, Registry)
    assert len(registry) == len(load_registry())
    assert not any(isinstance(spec, CataloguedTool) for spec in registry)
    assert "scripts/gen_catalogue.py" in caplog.text
