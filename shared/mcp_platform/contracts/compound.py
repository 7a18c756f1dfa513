"""compound: chemical compounds from PubChem (PUG-REST and PUG-View): search, properties, GHS safety.

Every result names its `source` (PubChem and the compound's public page) and `retrieved_at`.
An unknown compound is an error result `not_found`; a compound without GHS data is a
successful answer with `status: no_ghs_data`. PubChem down or rate-limiting is
`upstream_unavailable`. Failed calls are not charged.
"""

from __future__ import annotations

from typing import Literal, Self

from pydantic import BaseModel, Field, model_validator

from mcp_platform.catalogue.registry import ToolInput
from mcp_platform.contracts._common import status_tool
from mcp_platform.contracts._data import DataOutput, DataStatus, data_tool
from mcp_platform.protocol.schema import output_schema

SERVICE = "compound"

# ---------------------------------------------------------------- inputs


class CompoundSearchInput(ToolInput):
    query: str = Field(min_length=1, max_length=500, description="What to look for, e.g. 'aspirin', 'CCO', 'C9H8O4'.")
    by: Literal["name", "smiles", "inchikey", "formula"] = Field(
        default="name",
        description="How to read `query`: a name or synonym (also CAS numbers), a SMILES string, a full "
        "InChIKey, or a molecular formula (exact composition).",
    )
    limit: int = Field(default=10, ge=1, le=50, description="Most CIDs to return.")


class CompoundRefInput(ToolInput):
    cid: int | None = Field(default=None, ge=1, description="PubChem compound id, e.g. 2244.")
    name: str | None = Field(
        default=None, min_length=1, max_length=500, description="A name, synonym or CAS number, e.g. 'aspirin'."
    )

    @model_validator(mode="after")
    def _one_of(self) -> Self:
        if (self.cid is None) == (self.name is None):
            raise ValueError("give exactly one of `cid` or `name`")
        return self


# ---------------------------------------------------------------- outputs


class CompoundHit(BaseModel):
    cid: int
    title: str | None = Field(default=None, description="PubChem's title for the compound (its common name).")
    formula: str | None = None


class CompoundSearchOutput(DataOutput):
    query: str
    by: str
    count: int
    results: list[CompoundHit] = Field(description="Best matches first; empty when PubChem has no match.")


class CompoundProperties(DataOutput):
    cid: int
    title: str | None = None
    formula: str | None = None
    molecular_weight: float | None = Field(default=None, description="g/mol.")
    exact_mass: float | None = None
    smiles: str | None = Field(
        default=None, description="SMILES with stereochemistry (PubChem 'SMILES', formerly 'IsomericSMILES')."
    )
    connectivity_smiles: str | None = Field(
        default=None, description="SMILES without stereo/isotopes ('ConnectivitySMILES', formerly 'CanonicalSMILES')."
    )
    inchi: str | None = None
    inchikey: str | None = None
    iupac_name: str | None = None
    xlogp: float | None = Field(default=None, description="Computed octanol/water partition coefficient.")
    tpsa: float | None = Field(default=None, description="Topological polar surface area, Å².")
    hbond_donors: int | None = None
    hbond_acceptors: int | None = None
    rotatable_bonds: int | None = None
    heavy_atoms: int | None = None
    charge: int | None = None
    other_cids: list[int] | None = Field(default=None, description="Further CIDs the name also matched.")


class Pictogram(BaseModel):
    code: str = Field(description="GHS pictogram code, e.g. GHS02.")
    name: str = Field(description="e.g. 'Flammable'.")


class HazardStatement(BaseModel):
    code: str = Field(description="H-code, e.g. H225 (combinations such as H300+H310 kept whole).")
    text: str
    hazard_class: str | None = Field(default=None, description="Signal and hazard class in PubChem's brackets.")
    share_percent: float | None = Field(
        default=None,
        description="Share of ECHA C&L notifications giving this statement, when the source says ('> 99.9%' → 99.9).",
    )
    minimum_classification: bool | None = Field(
        default=None, description="True where the source marks the code with * or ** (a minimum classification)."
    )


class GhsClassification(BaseModel):
    source: str = Field(description="Who classified (e.g. 'European Chemicals Agency (ECHA)').")
    reference_number: int
    signal_word: str | None = None
    pictograms: list[Pictogram]
    hazard_statements: list[HazardStatement]
    precautionary_codes: list[str]
    notifications: str | None = Field(default=None, description="The source's summary of how many notified.")
    notes: list[str] | None = Field(
        default=None,
        description="Statements that are not H-codes, e.g. 'Not Classified' or 'not meeting GHS criteria'.",
    )


class CompoundSafety(DataOutput):
    cid: int
    title: str | None = None
    status: Literal["classified", "not_classified", "no_ghs_data"] = Field(
        description="classified: some source gives hazards; not_classified: the sources report it as not "
        "meeting GHS criteria; no_ghs_data: PubChem holds the compound but no GHS section for it."
    )
    signal_word: str | None = Field(default=None, description="The most severe signal word of any source.")
    pictograms: list[Pictogram] = Field(description="Every pictogram any source gives.")
    classifications: list[GhsClassification] = Field(description="One per source, in PubChem's order.")


class CompoundStatus(DataStatus):
    pass


TOOLS = [
    data_tool(
        SERVICE,
        "compound_search",
        "Find compounds in PubChem",
        "Finds PubChem compound ids (CIDs) with their titles by name or synonym (also CAS numbers), SMILES, "
        "InChIKey or molecular formula. No match is an empty list.",
        CompoundSearchInput,
        CompoundSearchOutput,
    ),
    data_tool(
        SERVICE,
        "compound_properties",
        "Compound properties",
        "Computed properties of a PubChem compound by CID or name: formula, molecular weight, SMILES, "
        "InChI/InChIKey, IUPAC name, XLogP, TPSA, H-bond donors and acceptors.",
        CompoundRefInput,
        CompoundProperties,
    ),
    data_tool(
        SERVICE,
        "compound_safety",
        "Compound GHS safety",
        "GHS hazard classification of a compound from PubChem, per source: pictograms (codes and names), "
        "signal word, hazard statements with their share of notifications, precautionary codes. A compound "
        "without GHS data answers status 'no_ghs_data'.",
        CompoundRefInput,
        CompoundSafety,
    ),
    status_tool(
        SERVICE,
        title="Compound service status",
        description="PubChem origin in use, polite request rate, cache TTL. Free.",
        output_schema=output_schema(CompoundStatus),
    ),
]
