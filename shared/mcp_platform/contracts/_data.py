"""Output-schema pieces every data service shares (compound, drug, plant, supplement, herbal).

Not a service: registry discovery skips modules whose name starts with `_`.

Examples:
    >>> schema = data_output_schema({"cid": {"type": "integer"}}, ["cid"], notice=True)
"""

from __future__ import annotations

from typing import Any

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
