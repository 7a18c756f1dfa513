"""drug: medicines from NLM RxNav (RxNorm), openFDA (labels, FAERS adverse events, recalls, NDC directory)
and DailyMed (SPL labels).

Reference information, not medical advice: every result carries the notice, its `source` and
`retrieved_at`. An unknown drug, RxCUI, label or NDC is an error result `not_found`; a backend
down or rate-limiting is `upstream_unavailable` naming it. Failed calls are not charged.
"""

from __future__ import annotations

import re
from typing import Literal, Self

from pydantic import BaseModel, Field, field_validator, model_validator

from mcp_platform.catalogue.registry import ToolInput
from mcp_platform.contracts._common import status_tool
from mcp_platform.contracts._data import AdvisedOutput, DataStatus, data_tool
from mcp_platform.protocol.schema import output_schema

SERVICE = "drug"
_NAME = Field(min_length=2, max_length=200, description="Drug name, brand or generic, e.g. 'lipitor', 'atorvastatin'.")
_RXCUI = r"^\d{1,10}$"

LABEL_SECTIONS: dict[str, str] = {
    # openFDA label field → LOINC code of the SPL section (DailyMed)
    "boxed_warning": "34066-1",
    "indications_and_usage": "34067-9",
    "dosage_and_administration": "34068-7",
    "dosage_forms_and_strengths": "43678-2",
    "contraindications": "34070-3",
    "warnings_and_cautions": "43685-7",
    "warnings": "34071-1",
    "precautions": "42232-9",
    "adverse_reactions": "34084-4",
    "drug_interactions": "34073-7",
    "use_in_specific_populations": "43684-0",
    "pregnancy": "42228-7",
    "overdosage": "34088-5",
    "description": "34089-3",
    "clinical_pharmacology": "34090-1",
    "mechanism_of_action": "43679-0",
    "how_supplied": "34069-5",
    "storage_and_handling": "44425-7",
    "active_ingredient": "55106-9",
    "inactive_ingredient": "51727-6",
    "purpose": "55105-1",
    "do_not_use": "50570-1",
    "ask_doctor": "50569-3",
    "stop_use": "50566-9",
    "when_using": "50567-7",
    "pregnancy_or_breast_feeding": "53414-9",
    "keep_out_of_reach_of_children": "50565-1",
}
DEFAULT_SECTIONS = [
    "boxed_warning",
    "indications_and_usage",
    "dosage_and_administration",
    "contraindications",
    "warnings_and_cautions",
    "warnings",
    "adverse_reactions",
    "drug_interactions",
]
Section = Literal[tuple(LABEL_SECTIONS)]  # type: ignore[valid-type]

# ---------------------------------------------------------------- inputs


class DrugSearchInput(ToolInput):
    name: str = _NAME
    limit: int = Field(default=5, ge=1, le=20, description="Most distinct RxCUIs to return.")


class DrugGetInput(ToolInput):
    rxcui: str = Field(pattern=_RXCUI, description="RxNorm concept id, e.g. '617314' (from drug_search).")


class DrugLabelInput(ToolInput):
    name: str | None = Field(default=None, min_length=2, max_length=200, description="Brand or generic name.")
    rxcui: str | None = Field(default=None, pattern=_RXCUI, description="RxNorm concept id.")
    set_id: str | None = Field(
        default=None,
        pattern=r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$",
        description="SPL set id (a UUID, as DailyMed shows it).",
    )
    sections: list[Section] = Field(  # type: ignore[valid-type]
        default_factory=lambda: list(DEFAULT_SECTIONS),
        min_length=1,
        max_length=len(LABEL_SECTIONS),
        description="Label sections to return (openFDA field names). Default: boxed warning, indications, "
        "dosage, contraindications, warnings, adverse reactions, interactions.",
    )
    max_chars: int = Field(default=4000, ge=200, le=20000, description="Longest text returned per section.")

    @model_validator(mode="after")
    def _one_of(self) -> Self:
        if sum(v is not None for v in (self.name, self.rxcui, self.set_id)) != 1:
            raise ValueError("give exactly one of `name`, `rxcui` or `set_id`")
        return self


class DrugEventsInput(ToolInput):
    name: str = _NAME
    top: int = Field(default=10, ge=1, le=100, description="How many of the most reported reactions.")


class DrugRecallsInput(ToolInput):
    name: str = _NAME
    limit: int = Field(default=10, ge=1, le=50, description="Most recall reports to return (newest first).")


class DrugNdcInput(ToolInput):
    ndc: str = Field(
        min_length=8,
        max_length=14,
        description="National Drug Code: 10 digits with hyphens (4-4-2, 5-3-2 or 5-4-1, e.g. '37000-653-04'), "
        "11 digits without ('00143314501'), or a product NDC ('37000-653').",
    )

    @field_validator("ndc")
    @classmethod
    def _shape(cls, value: str) -> str:
        value = value.strip()
        if not re.fullmatch(r"\d{11}|\d{4,5}-\d{3,4}(-\d{1,2})?", value):
            raise ValueError("not an NDC: use 10 digits with hyphens (e.g. 37000-653-04) or 11 digits")
        return value


# ---------------------------------------------------------------- outputs


class Concept(BaseModel):
    rxcui: str
    name: str
    tty: str | None = Field(default=None, description="RxNorm term type (IN, BN, SCD, SBD, ...).")


class DrugCandidate(Concept):
    score: float | None = Field(default=None, description="RxNav's approximate-match score (higher is closer).")
    rank: int | None = None


class DrugSearchOutput(AdvisedOutput):
    name: str
    count: int
    results: list[DrugCandidate] = Field(description="Distinct RxCUIs, best first; empty when nothing is close.")


class DrugGetOutput(AdvisedOutput):
    rxcui: str
    name: str | None = None
    tty: str | None = None
    ingredients: list[Concept]
    brand_names: list[Concept]
    dose_forms: list[Concept]
    related: dict[str, list[Concept]] = Field(description="Other related concepts by term type (SCD, SBD, ...).")


class LabelSection(BaseModel):
    name: str
    title: str | None = None
    text: str
    truncated: bool = False


class LabelInfo(BaseModel):
    brand_names: list[str] = Field(default_factory=list)
    generic_names: list[str] = Field(default_factory=list)
    manufacturer: str | None = None
    product_type: str | None = None
    routes: list[str] = Field(default_factory=list)
    set_id: str | None = None
    version: str | None = None
    effective_time: str | None = None
    title: str | None = None


class DrugLabelOutput(AdvisedOutput):
    label_source: Literal["openFDA", "DailyMed"]
    label: LabelInfo
    sections: list[LabelSection]
    missing_sections: list[str] = Field(description="Requested sections this label does not have.")
    dailymed_url: str | None = Field(default=None, description="The label's page on DailyMed.")


class Reaction(BaseModel):
    reaction: str = Field(description="MedDRA preferred term as reported.")
    count: int


class DrugEventsOutput(AdvisedOutput):
    name: str
    reactions: list[Reaction] = Field(description="Most reported first; empty when FAERS has no report.")
    caveat: str


class Recall(BaseModel):
    recall_number: str | None = None
    report_date: str | None = Field(default=None, description="YYYY-MM-DD.")
    recall_initiation_date: str | None = None
    status: str | None = None
    classification: str | None = None
    product_description: str | None = None
    reason_for_recall: str | None = None
    recalling_firm: str | None = None
    distribution_pattern: str | None = None
    voluntary_mandated: str | None = None
    product_quantity: str | None = None


class DrugRecallsOutput(AdvisedOutput):
    name: str
    total: int = Field(description="Matching enforcement reports in openFDA (more than returned when limited).")
    recalls: list[Recall] = Field(description="Newest report first; empty when there is none.")


class Packaging(BaseModel):
    package_ndc: str | None = None
    description: str


class Ingredient(BaseModel):
    name: str
    strength: str | None = None


class DrugNdcOutput(AdvisedOutput):
    ndc: str
    ndc10: str | None = None
    ndc11: str | None = None
    status: str | None = Field(default=None, description="RxNav NDC status: ACTIVE, OBSOLETE, ALIEN, UNKNOWN.")
    active: bool | None = None
    rxcui: str | None = None
    concept_name: str | None = None
    brand_name: str | None = None
    generic_name: str | None = None
    labeler: str | None = None
    dosage_form: str | None = None
    routes: list[str] = Field(default_factory=list)
    marketing_category: str | None = None
    marketing_status: str | None = None
    product_type: str | None = None
    active_ingredients: list[Ingredient] = Field(default_factory=list)
    packaging: list[Packaging] = Field(default_factory=list)
    spl_set_id: str | None = None
    history: list[dict[str, str]] = Field(default_factory=list, description="RxNav's NDC → RxCUI history.")
    sources: list[str] = Field(description="Which backends knew the NDC (RxNav status, RxNav properties, openFDA).")


class DrugStatus(DataStatus):
    pass


TOOLS = [
    data_tool(
        SERVICE,
        "drug_search",
        "Find drugs in RxNorm",
        "RxNorm concepts (RxCUIs) for a drug name by RxNav's approximate match, deduplicated, with names "
        "and term types.",
        DrugSearchInput,
        DrugSearchOutput,
        advised=True,
    ),
    data_tool(
        SERVICE,
        "drug_get",
        "Drug concept",
        "An RxNorm concept by RxCUI: its ingredients, brand names, dose forms and related concepts (RxNav).",
        DrugGetInput,
        DrugGetOutput,
        advised=True,
    ),
    data_tool(
        SERVICE,
        "drug_label",
        "Drug label sections",
        "Sections of a drug's official label (openFDA; DailyMed SPL by set id when openFDA lacks it) for "
        "a name, RxCUI or SPL set id, with the DailyMed link.",
        DrugLabelInput,
        DrugLabelOutput,
        advised=True,
    ),
    data_tool(
        SERVICE,
        "drug_adverse_events",
        "Reported adverse reactions",
        "The reactions most often reported to FDA's FAERS for a drug, with counts (openFDA). Reports do "
        "not prove causation.",
        DrugEventsInput,
        DrugEventsOutput,
        advised=True,
    ),
    data_tool(
        SERVICE,
        "drug_recalls",
        "Drug recalls",
        "FDA enforcement reports (recalls) for a drug, newest first: classification, status, reason, firm.",
        DrugRecallsInput,
        DrugRecallsOutput,
        advised=True,
    ),
    data_tool(
        SERVICE,
        "drug_ndc",
        "NDC lookup",
        "A National Drug Code: product, packaging, labeler, marketing and RxNorm status (RxNav NDC status "
        "and properties, openFDA NDC directory).",
        DrugNdcInput,
        DrugNdcOutput,
        advised=True,
    ),
    status_tool(
        SERVICE,
        title="Drug service status",
        description="RxNav, openFDA and DailyMed origins in use, polite rates, cache TTLs, whether an "
        "openFDA key is set. Free.",
        output_schema=output_schema(DrugStatus),
    ),
]
