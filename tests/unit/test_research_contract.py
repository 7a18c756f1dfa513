"""The research contract is seed 004: shipped verbatim, published self-contained, priced per depth."""

from __future__ import annotations

import hashlib
import json

import jsonschema
import pytest

from mcp_platform.contracts.research import (
    SEED_FILE,
    TOOLS,
    ResearchBriefInput,
    seed,
    seed_schema,
)
from mcp_platform.outbound.provider_status import providers_configured
from mcp_platform.runtime.settings import ProviderSettings
from tests.support.research import LIVE_SETTINGS

SEED_004_SHA256 = "9e35c0474a5ca99ff86d84317f052b7fe6dbb0f557d0c4bfe566f4560464f5a6"
"""sha256 of seeds/004_d4a2988b9e686987.txt as handed over: the shipped copy must be that file, byte for byte."""

SPECS = {spec.name: spec for spec in TOOLS}


def test_the_shipped_seed_is_the_seed_file_itself() -> None:
    assert hashlib.sha256(SEED_FILE.read_bytes()).hexdigest() == SEED_004_SHA256
    assert "2026-09-14" in seed()["description"]


@pytest.mark.parametrize(
    ("tool", "definition"),
    [
        ("research_brief", "researchBriefOutput"),
        ("source_lookup", "sourceLookupOutput"),
        ("compare_options", "envelope"),
        ("credits", "creditsResponse"),
    ],
)
def test_output_schema_is_the_seed_definition_with_refs_inlined(tool: str, definition: str) -> None:
    published = SPECS[tool].output_schema
    assert published == seed_schema(definition)
    assert "$ref" not in json.dumps(published)
    assert published["type"] == "object"
    jsonschema.Draft202012Validator.check_schema(published)


def test_inlining_keeps_the_seed_rules() -> None:
    brief = seed_schema("researchBriefOutput")
    envelope = brief["allOf"][0]
    assert envelope["properties"]["schema_version"]["const"] == "2026-09-14"
    assert envelope["properties"]["confidence"]["enum"] == ["high", "medium", "low", "unknown"]
    assert envelope["properties"]["sources"]["items"]["properties"]["type"]["enum"] == ["primary", "secondary"]


@pytest.mark.parametrize(("depth", "credits"), [("quick", 25), ("standard", 60), ("deep", 0)])
def test_brief_price_follows_depth_when_live(depth: str, credits: int) -> None:
    arguments = ResearchBriefInput(query="why is the sky blue", depth=depth)
    live = providers_configured(ProviderSettings.model_validate(LIVE_SETTINGS))
    assert live and not providers_configured(ProviderSettings())
    # no provider: recordings or the sample, free
    assert SPECS["research_brief"].price_for(arguments, providers_configured=False) == 0
    assert SPECS["research_brief"].price_for(arguments, providers_configured=live) == credits


def test_flags_preview_balance_and_free_tools() -> None:
    assert SPECS["compare_options"].preview and not SPECS["research_brief"].preview
    assert SPECS["credits"].needs_balance and SPECS["credits"].price == 0
    assert SPECS["compare_options"].price == 0
