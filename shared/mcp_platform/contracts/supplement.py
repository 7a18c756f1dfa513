"""supplement: dietary supplement labels from the NIH Dietary Supplement Label Database (DSLD) and
ingredient fact sheets from the NIH Office of Dietary Supplements (ODS).

Reference information, not medical advice: every result carries the notice, its `source` and
`retrieved_at`. An unknown label id or fact sheet is an error result `not_found`; DSLD or ODS down
or rate-limiting is `upstream_unavailable` naming it. Failed calls are not charged.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from mcp_platform.catalogue.registry import ToolInput
from mcp_platform.contracts._common import status_tool
from mcp_platform.contracts._data import AdvisedOutput, DataStatus, data_tool
from mcp_platform.protocol.schema import output_schema

SERVICE = "supplement"

# ---------------------------------------------------------------- inputs


class SupplementSearchInput(ToolInput):
    query: str = Field(
        min_length=2, max_length=200, description="Product, brand or ingredient words, e.g. 'vitamin d3 2000'."
    )
    limit: int = Field(default=10, ge=1, le=50, description="Most labels to return.")


class SupplementLabelInput(ToolInput):
    dsld_id: int = Field(ge=1, le=10**9, description="DSLD label id (from supplement_search), e.g. 1225.")


class SupplementIngredientInput(ToolInput):
    name: str = Field(
        min_length=2,
        max_length=100,
        description="Nutrient or ingredient with an ODS fact sheet, e.g. 'vitamin D', 'magnesium', 'omega-3'.",
    )
    reading_level: Literal["Health Professional", "Consumer"] = Field(
        default="Health Professional", description="Which version of the fact sheet."
    )


# ---------------------------------------------------------------- outputs


class LabelHit(BaseModel):
    dsld_id: int
    product: str
    brand: str | None = None
    form: str | None = Field(default=None, description="Physical form, e.g. 'Softgel Capsule'.")
    on_market: bool | None = None
    entry_date: str | None = None


class SupplementSearchOutput(AdvisedOutput):
    query: str
    total: int | None = Field(default=None, description="Labels DSLD matched (more than returned when limited).")
    results: list[LabelHit] = Field(description="Best matches first; empty when DSLD has none.")


class DailyValue(BaseModel):
    group: str | None = Field(
        default=None, description="Who the %DV is for, e.g. 'Adults and children 4 or more years'."
    )
    percent: float | None = None
    operator: str | None = None
    footnote: str | None = Field(default=None, description="e.g. 'Daily Value not established'.")


class Amount(BaseModel):
    quantity: float | None = Field(default=None, description="Per serving; absent where the label gives none (NP).")
    unit: str | None = None
    operator: str | None = Field(default=None, description="'=' or '<' as on the label.")
    per_serving: str | None = Field(default=None, description="The serving it is for, e.g. '2 Softgel(s)'.")
    daily_values: list[DailyValue] = Field(default_factory=list)


class LabelIngredient(BaseModel):
    name: str
    category: str | None = None
    ingredient_group: str | None = None
    amounts: list[Amount] = Field(default_factory=list)
    forms: list[str] = Field(default_factory=list, description="Forms named on the label, e.g. 'Cholecalciferol'.")
    notes: str | None = None
    nested: list[LabelIngredient] = Field(default_factory=list, description="Rows inside a blend or subtotal.")


class Statement(BaseModel):
    type: str
    text: str


class SupplementLabelOutput(AdvisedOutput):
    dsld_id: int
    product: str
    brand: str | None = None
    upc: str | None = None
    on_market: bool
    entry_date: str | None = None
    form: str | None = None
    product_type: str | None = None
    serving_sizes: list[str] = Field(description="As printed: '2 Softgel(s)', '1-2 Tablet(s)'.")
    servings_per_container: str | None = None
    net_contents: list[str] = Field(default_factory=list)
    ingredients: list[LabelIngredient]
    other_ingredients: list[str] = Field(default_factory=list)
    other_ingredients_text: str | None = None
    statements: list[Statement] = Field(default_factory=list)
    target_groups: list[str] = Field(default_factory=list)


class IntakeTable(BaseModel):
    caption: str
    columns: list[str]
    rows: list[list[str]]


class SupplementIngredientOutput(AdvisedOutput):
    name: str
    resource: str = Field(description="The ODS fact-sheet resource name asked for, e.g. 'VitaminD'.")
    title: str
    reading_level: str
    summary: str = Field(description="The fact sheet's opening paragraphs as plain text.")
    rda: IntakeTable | None = Field(default=None, description="Recommended Dietary Allowances (or AIs), when given.")
    ul: IntakeTable | None = Field(default=None, description="Tolerable Upper Intake Levels, when given.")
    last_reviewed: str | None = None
    url: str | None = Field(default=None, description="The fact sheet on the ODS site.")


class SupplementStatus(DataStatus):
    pass


TOOLS = [
    data_tool(
        SERVICE,
        "supplement_search",
        "Find supplement labels",
        "Dietary supplement labels in the NIH DSLD matching product, brand or ingredient words: id, "
        "product, brand, form, on/off market.",
        SupplementSearchInput,
        SupplementSearchOutput,
        advised=True,
    ),
    data_tool(
        SERVICE,
        "supplement_label",
        "Supplement label",
        "A DSLD label by id: product, serving size, ingredients with amounts, units and %Daily Values "
        "(blends nested), other ingredients, label statements.",
        SupplementLabelInput,
        SupplementLabelOutput,
        advised=True,
    ),
    data_tool(
        SERVICE,
        "supplement_ingredient",
        "Ingredient fact sheet",
        "The NIH ODS fact sheet of a nutrient or supplement ingredient: summary, and the RDA and UL "
        "tables where the sheet gives them.",
        SupplementIngredientInput,
        SupplementIngredientOutput,
        advised=True,
    ),
    status_tool(
        SERVICE,
        title="Supplement service status",
        description="DSLD and ODS origins in use, polite rates, cache TTLs. Free.",
        output_schema=output_schema(SupplementStatus),
    ),
]
