"""Output-schema pieces every data service shares (compound, drug, plant, supplement, herbal).

Not a service: registry discovery skips modules whose name starts with `_`.

Examples:
    >>> schema = data_output_schema({"cid": {"type": "integer"}}, ["cid"], notice=True)   # a dict schema
    >>> class DrugGet(AdvisedOutput): rxcui: str                                          # or a pydantic model
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from mcp_platform.catalogue.registry import Annotations, ToolInput, ToolSpec
from mcp_platform.contracts._common import StatusOutput
from mcp_platform.protocol.schema import output_schema

NOT_MEDICAL_ADVICE = (
    "Reference information from public databases, not medical advice: ask a doctor or pharmacist "
    "before starting, stopping or combining medicines or supplements."
)
"""The notice drug, supplement and herbal results carry in `notice`."""

SOURCE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "Where the answer comes from: the API, the record's public URL, whether it was served from cache.",
    "properties": {
        "api": {"type": "string"},
        "url": {"type": "string"},
        "cached": {"type": "boolean"},
    },
    "required": ["api", "url"],
    "additionalProperties": False,
}
RETRIEVED_AT_SCHEMA: dict[str, Any] = {
    "type": "string",
    "description": "When the backend produced the answer (ISO-8601 UTC); a cached answer keeps its original time.",
}


def data_output_schema(
    properties: dict[str, Any], required: list[str], *, notice: bool = False, closed: bool = True
) -> dict[str, Any]:
    """An output schema with `source` and `retrieved_at` (and `notice` when `notice`) required."""
    extra: dict[str, Any] = {"source": SOURCE_SCHEMA, "retrieved_at": RETRIEVED_AT_SCHEMA}
    if notice:
        extra["notice"] = {"type": "string", "const": NOT_MEDICAL_ADVICE}
    return {
        "type": "object",
        "properties": {**properties, **extra},
        "required": [*required, *extra],
        "additionalProperties": not closed,
    }


# ---------------------------------------------------------------- pydantic forms of the same


class Source(BaseModel):
    """Where the answer comes from: the API, the record's public URL, whether it was served from cache."""

    api: str
    url: str
    cached: bool = False


# Base of a data tool's output model: `source` and `retrieved_at` (see `mcp_platform.backends.provenance`).
# (No docstring: it would become every subclass's schema description.)
class DataOutput(BaseModel):
    source: Source
    retrieved_at: str = Field(description=RETRIEVED_AT_SCHEMA["description"])


# A `DataOutput` that carries the "not medical advice" notice (drug, supplement, herbal).
class AdvisedOutput(DataOutput):
    notice: Literal[NOT_MEDICAL_ADVICE]  # type: ignore[valid-type]


class BackendInfo(BaseModel):
    api: str
    base_url: str = Field(description="The configured origin (set by the API's *_BASE_URL variable).")
    base_url_env: str
    rate_per_s: float = Field(description="Polite request rate of one instance.")
    cache_ttl_s: int = Field(description="How long answers are reused.")
    key_configured: bool | None = Field(default=None, description="Whether the optional API key is set.")


class DataStatus(StatusOutput):
    backends: list[BackendInfo]
    cache_table: str | None = Field(default=None, description="DynamoDB table of cached answers; absent: memory only.")


def data_tool(
    service: str,
    name: str,
    title: str,
    description: str,
    input_model: type[ToolInput],
    output_model: type[BaseModel],
    *,
    advised: bool = False,
    price: int = 1,
) -> ToolSpec:
    """A read-only, open-world data tool at `price` credits; `advised` adds "Not medical advice." to the
    description (the output model should then derive from `AdvisedOutput`)."""
    notice = " Not medical advice." if advised else ""
    return ToolSpec(
        name=name,
        service=service,
        title=title,
        description=f"{description}{notice} {price} credit{'s' if price != 1 else ''}.",
        input_model=input_model,
        output_schema=output_schema(output_model),
        annotations=Annotations(open_world=True),
        price=price,
    )
