"""plant: plant names, classification and distribution from the GBIF species API and Kew's POWO.

`plant_search` matches a name against the GBIF backbone taxonomy; `plant_get` and
`plant_distribution` take the GBIF usage key it returns. Distribution comes from Plants of the
World Online when the GBIF name can be linked to a POWO (IPNI) record, else from GBIF's checklist
distributions; `distribution_source` says which. Every result names its `source` and
`retrieved_at`. An unknown key is `not_found`; GBIF or POWO down or rate-limiting is
`upstream_unavailable`; failed calls are not charged.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from mcp_platform.catalogue.registry import ToolInput, ToolSpec
from mcp_platform.contracts._common import status_tool
from mcp_platform.contracts._data import DataOutput, DataStatus, data_tool
from mcp_platform.protocol.schema import output_schema

SERVICE = "plant"

# ---------------------------------------------------------------- inputs


class PlantSearchInput(ToolInput):
    name: str = Field(
        min_length=1, max_length=200, description="A scientific name, with or without author: 'Helianthus annuus'."
    )
    limit: int = Field(default=5, ge=1, le=20, description="Most matches to return (the best and its alternatives).")


class PlantKeyInput(ToolInput):
    key: int = Field(ge=1, le=2_147_483_647, description="GBIF backbone usage key, e.g. 9206251 (from plant_search).")


# ---------------------------------------------------------------- outputs


class PlantMatch(BaseModel):
    usage_key: int
    scientific_name: str
    canonical_name: str | None = None
    rank: str | None = None
    status: str | None = Field(default=None, description="Taxonomic status: ACCEPTED, SYNONYM, DOUBTFUL, ...")
    confidence: int | None = Field(default=None, description="GBIF's match confidence, 0-100.")
    match_type: str = Field(description="EXACT, FUZZY or HIGHERRANK (NONE gives no result).")
    kingdom: str | None = None
    family: str | None = None
    synonym: bool = False
    accepted_usage_key: int | None = Field(default=None, description="The accepted taxon when this is a synonym.")


class PlantSearchOutput(DataOutput):
    query: str
    count: int
    results: list[PlantMatch]
    note: str | None = Field(default=None, description="Why there is no match, as GBIF says it.")


class Rank(BaseModel):
    rank: str
    name: str
    key: int | None = None


class Synonym(BaseModel):
    key: int
    scientific_name: str
    status: str | None = None


class PlantGetOutput(DataOutput):
    key: int
    scientific_name: str
    canonical_name: str | None = None
    authorship: str | None = None
    rank: str | None = None
    status: str | None = None
    accepted_key: int | None = Field(default=None, description="The accepted taxon when this key is a synonym.")
    accepted: str | None = None
    classification: list[Rank] = Field(description="Kingdom down to this taxon's parent ranks.")
    synonyms: list[Synonym]
    vernacular_names: dict[str, list[str]] = Field(
        description="Common names by ISO 639-2 language code ('und' when the source gives none)."
    )
    truncated: list[str] = Field(default_factory=list, description="Lists cut at GBIF's first page (100 entries).")


class Region(BaseModel):
    name: str
    code: str | None = Field(default=None, description="TDWG level-3 code (POWO) or the checklist's location id.")
    establishment: str | None = None


class PlantDistributionOutput(DataOutput):
    key: int
    scientific_name: str
    distribution_source: Literal["powo", "gbif"]
    ipni_id: str | None = Field(default=None, description="The IPNI name id POWO's record was linked by.")
    native: list[Region]
    introduced: list[Region]
    other: list[Region] = Field(default_factory=list, description="Regions with another or no establishment status.")
    note: str


class PlantStatus(DataStatus):
    pass


def _tool(name: str, title: str, description: str, model: type[ToolInput], out: type[BaseModel]) -> ToolSpec:
    return data_tool(SERVICE, name, title, description, model, out)


TOOLS = [
    status_tool(
        SERVICE,
        title="Plant status",
        description="The GBIF and POWO origins, polite rates and answer cache in use. Free.",
        output_schema=output_schema(PlantStatus),
    ),
    _tool(
        "plant_search",
        "Match a plant name (GBIF)",
        "Matches a scientific name against the GBIF backbone taxonomy: usage key, rank, taxonomic status, "
        "confidence and match type (EXACT, FUZZY, HIGHERRANK), best first with alternatives. No match is an "
        "empty list.",
        PlantSearchInput,
        PlantSearchOutput,
    ),
    _tool(
        "plant_get",
        "Get a plant taxon (GBIF)",
        "One GBIF backbone taxon by usage key: names, rank, status, classification, synonyms and vernacular "
        "names grouped by language.",
        PlantKeyInput,
        PlantGetOutput,
    ),
    _tool(
        "plant_distribution",
        "Where a plant grows",
        "Native and introduced regions of a GBIF taxon: from Kew's Plants of the World Online (TDWG regions) "
        "when the name links to a POWO/IPNI record, else from GBIF checklist distributions; "
        "distribution_source says which.",
        PlantKeyInput,
        PlantDistributionOutput,
    ),
]
