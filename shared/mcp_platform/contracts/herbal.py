"""herbal: herbs, their chemical constituents, traditional uses and interaction cautions (USDA Dr. Duke's databases).

Read from a database imported from Dr. Duke's Phytochemical and Ethnobotanical Databases
(USDA-ARS, CC0). Every result carries `source`, `retrieved_at` (when the data was taken from
the dump), `dataset` (release, tables, the USDA's terms) and a `notice` that it is not medical
advice. A tool whose dump table the deployment did not import answers `missing_table`, naming
the table; nothing is charged for it.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, StringConstraints

from mcp_platform.catalogue.registry import ToolInput, ToolSpec
from mcp_platform.contracts._common import status_output_schema, status_tool
from mcp_platform.contracts._data import data_output_schema

MISSING_TABLE = "missing_table"
"""Error code: the deployment's database was built without a dump table this tool needs."""

Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
_HERB = "A herb: scientific name (Hypericum perforatum), common name (St. John's-wort) or herb_id from herbal_search."


def _limit(default: int, maximum: int) -> Any:
    return Field(default=default, ge=1, le=maximum, description=f"Most results to return (1-{maximum}).")


class SearchInput(ToolInput):
    name: Text = Field(description="Scientific or common name, or the start of one (words match as prefixes).")
    limit: int = _limit(10, 50)


class HerbInput(ToolInput):
    herb: Text = Field(description=_HERB)


class ConstituentsInput(ToolInput):
    herb: Text = Field(description=_HERB)
    part: Text | None = Field(
        default=None, description="Only this plant part: a name (Leaf, Root, Flower) or Dr. Duke's code (LF, RT, FL)."
    )
    limit: int = _limit(100, 500)


class ActivityInput(ToolInput):
    activity: Text = Field(
        description="A biological activity as Dr. Duke's names it, e.g. Anticoagulant, MAO-Inhibitor, Sedative, "
        "Hypoglycemic; a unique part of a name also works (coagul)."
    )
    limit: int = _limit(20, 50)


_STR = {"type": "string"}
_INT = {"type": "integer"}
_NUM = {"type": ["number", "null"]}
_STRS = {"type": "array", "items": _STR}


def _obj(props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": required, "additionalProperties": False}


DATASET = _obj(
    {
        "doi": _STR,
        "licence": _STR,
        "terms": _STR,
        "data_version": _STR,
        "tables": {**_STRS, "description": "The dump tables this answer was read from."},
    },
    ["licence", "terms", "data_version", "tables"],
)
HERB = _obj(
    {
        "herb_id": _INT,
        "fnfnum": {**_INT, "description": "Dr. Duke's plant number (absent for taxa only ETHNOBOT names)."},
        "scientific_name": _STR,
        "author": _STR,
        "family": _STR,
        "common_names": _STRS,
    },
    ["herb_id", "scientific_name", "common_names"],
)


def _result(props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    """`source` (the database), `retrieved_at` (when the data left the dump: the build), the not-medical-advice
    `notice`, and `dataset`: which release and tables, with the USDA's terms."""
    return data_output_schema({**props, "dataset": DATASET}, [*required, "dataset"], notice=True)


_CITED = {"reference": _STR, "citation": {**_STR, "description": "The full reference when the code resolves."}}
SEARCH_OUT = _result(
    {"query": _STR, "count": _INT, "results": {"type": "array", "items": HERB}}, ["query", "count", "results"]
)
GET_OUT = _result(
    {
        "herb": {**HERB, "properties": {**HERB["properties"], "genus": _STR, "species": _STR}},
        "also_matched": {"type": "array", "items": HERB, "description": "Other herbs the name fits."},
        "parts": {
            "type": "array",
            "items": _obj({"part": _STR, "part_code": _STR, "constituents": _INT}, ["part", "constituents"]),
        },
        "uses": {
            "type": "array",
            "description": "Ethnobotanical (traditional) uses, most widely reported first.",
            "items": _obj({"use": _STR, "countries": _STRS, "reports": _INT, "references": _STRS}, ["use", "reports"]),
        },
        "unavailable": {
            "type": "array",
            "description": "Parts of the answer the deployment's database lacks (dump tables not imported).",
            "items": _obj({"table": _STR, "fields": _STRS}, ["table", "fields"]),
        },
    },
    ["herb", "parts", "uses"],
)
CONSTITUENT = _obj(
    {
        "chemical": _STR,
        "cas": _STR,
        "part": _STR,
        "part_code": _STR,
        "amount_low": _NUM,
        "amount_high": _NUM,
        "unit": {**_STR, "description": "ppm unless the dump says otherwise."},
        "trace": {"type": "boolean"},
        "less_than": {"type": "boolean"},
        **_CITED,
    },
    ["chemical", "trace", "less_than"],
)
CONSTITUENTS_OUT = _result(
    {
        "herb": HERB,
        "part": _STR,
        "count": _INT,
        "truncated": {"type": "boolean"},
        "constituents": {"type": "array", "items": CONSTITUENT},
    },
    ["herb", "count", "truncated", "constituents"],
)
BY_ACTIVITY_OUT = _result(
    {
        "activity": _STR,
        "definition": _STR,
        "count": _INT,
        "results": {
            "type": "array",
            "items": {
                **HERB,
                "properties": {**HERB["properties"], "constituents": _INT, "chemicals": _STRS},
                "required": [*HERB["required"], "constituents", "chemicals"],
            },
        },
    },
    ["activity", "count", "results"],
)
FINDING = _obj({"chemical": _STR, "activity": _STR, "parts": _STRS, "dosage": _STR, **_CITED}, ["chemical", "activity"])
INTERACTIONS_OUT = _result(
    {
        "herb": HERB,
        "count": _INT,
        "cautions": {
            "type": "array",
            "items": _obj(
                {
                    "caution": _STR,
                    "concern": _STR,
                    "drugs": {**_STR, "description": "Drug classes the concern is about."},
                    "total": {**_INT, "description": "Findings in this caution; the first 25 are listed."},
                    "findings": {"type": "array", "items": FINDING},
                },
                ["caution", "concern", "drugs", "total", "findings"],
            ),
        },
        "message": _STR,
    },
    ["herb", "count", "cautions", "message"],
)
STATUS_OUT = status_output_schema(
    {
        "tables": {"type": "array", "items": _obj({"table": _STR, "rows": _INT, "file": _STR}, ["table", "rows"])},
        "missing_tables": _STRS,
        "herbs": _INT,
        "complete": {"type": "boolean", "description": "Every table the tools use was imported."},
        "how_to_build": _STR,
        "data_version": _STR,
        "built_at": _STR,
        "schema_version": _STR,
        "notice": _STR,
    },
    ["tables", "missing_tables", "herbs", "complete", "data_version", "built_at", "schema_version"],
)


def _tool(name: str, title: str, description: str, model: type[ToolInput], out: dict[str, Any]) -> ToolSpec:
    description = f"{description} Not medical advice. 1 credit."
    return ToolSpec(name=name, service="herbal", title=title, description=description, input_model=model,
                    output_schema=out, price=1)  # fmt: skip


TOOLS = [
    status_tool(
        "herbal",
        title="Herbal status",
        description="The dump tables the herbal database was built from (Dr Duke's databases), with row counts, and "
        "those missing (the tools needing them answer missing_table). Free.",
        output_schema=STATUS_OUT,
    ),
    _tool(
        "herbal_search",
        "Search herbs",
        "Herbs (plant taxa) by scientific or common name, best match first; words match as prefixes (ging finds "
        "Ginkgo and Ginger). Start here to get a herb_id.",
        SearchInput,
        SEARCH_OUT,
    ),
    _tool(
        "herbal_get",
        "Get a herb",
        "One herb: names, family, plant parts with recorded constituents, and ethnobotanical (traditional) uses "
        "with the countries reporting them.",
        HerbInput,
        GET_OUT,
    ),
    _tool(
        "herbal_constituents",
        "Herb constituents",
        "Chemicals recorded in a herb, each with the plant part and the amount range (ppm unless unit says "
        "otherwise), optionally for one part.",
        ConstituentsInput,
        CONSTITUENTS_OUT,
    ),
    _tool(
        "herbal_by_activity",
        "Herbs by activity",
        "Herbs whose constituents have a biological activity, such as Anti-inflammatory, Anticoagulant or Sedative, "
        "ranked by how "
        "many of their constituents have it.",
        ActivityInput,
        BY_ACTIVITY_OUT,
    ),
    _tool(
        "herbal_interactions",
        "Herb interaction cautions",
        "Cautions for combining a herb with medicines, derived from the reported activities of its constituents "
        "that matter for drug interactions: bleeding (anticoagulant, antiplatelet), clotting, MAO inhibition, "
        "serotonergic, cytochrome P450 inhibition and induction, blood sugar, blood pressure (both ways), "
        "sedation, heart rhythm and glycosides, potassium and fluid loss, hormonal, immune, cholinergic, liver "
        "and kidney toxicity. Each finding names the chemical, the activity and Dr Duke's reference; an empty "
        "list is not proof of safety.",
        HerbInput,
        INTERACTIONS_OUT,
    ),
]
