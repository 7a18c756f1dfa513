"""The supplement tools: DSLD and ODS through the shared backend client, answers via `parsing`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcp_platform.backends import backend_client, provenance
from mcp_platform.contracts._data import NOT_MEDICAL_ADVICE
from mcp_platform.contracts.supplement import (
    SupplementIngredientInput,
    SupplementIngredientOutput,
    SupplementLabelInput,
    SupplementLabelOutput,
    SupplementSearchInput,
    SupplementSearchOutput,
)
from mcp_platform.outbound import upstream
from supplement_service import parsing
from supplement_service.settings import settings

if TYPE_CHECKING:
    from mcp_platform.runtime.service import ServiceContext

ODS = "NIH ODS"
ODS_SITE = "https://ods.od.nih.gov/factsheets/"


def supplement_search(arguments: SupplementSearchInput, ctx: ServiceContext) -> SupplementSearchOutput:
    answer = backend_client("dsld", settings()).get(
        "/dsld/v9/search-filter",
        {"q": arguments.query, "from": 0, "size": arguments.limit},
        deadline=ctx.deadline_epoch,
    )
    hits, total = parsing.search_hits(answer.data)
    return SupplementSearchOutput.model_validate(
        {
            "query": arguments.query,
            "total": total,
            "results": hits[: arguments.limit],
            "notice": NOT_MEDICAL_ADVICE,
            **provenance(answer),
        }
    )


def supplement_label(arguments: SupplementLabelInput, ctx: ServiceContext) -> SupplementLabelOutput:
    label_id = arguments.dsld_id
    answer = backend_client("dsld", settings()).get(
        f"/dsld/v9/label/{label_id}", what=f"supplement label with id {label_id}", deadline=ctx.deadline_epoch
    )
    data = answer.data
    if not isinstance(data, dict) or "id" not in data:
        raise upstream.not_found(f"supplement label with id {label_id}", answer.backend.label)
    return SupplementLabelOutput.model_validate(
        {
            **parsing.label(data),
            "notice": NOT_MEDICAL_ADVICE,
            **provenance(answer, parsing.LABEL_SITE + str(label_id)),
        }
    )


def supplement_ingredient(arguments: SupplementIngredientInput, ctx: ServiceContext) -> SupplementIngredientOutput:
    resource = parsing.resource_name(arguments.name)
    what = f"fact sheet for {arguments.name!r}"
    answer = backend_client("ods", settings()).get(
        "/api/",
        {"resourcename": resource, "readinglevel": arguments.reading_level, "outputformat": "XML"},
        what=what,
        deadline=ctx.deadline_epoch,
        media_type="application/xml",
    )
    sheet = answer.decoded("factsheet", parsing.fact_sheet)
    if sheet is None:
        raise upstream.not_found(what, ODS)
    level = "HealthProfessional" if arguments.reading_level == "Health Professional" else "Consumer"
    url = sheet.get("url") or f"{ODS_SITE}{resource}-{level}/"
    return SupplementIngredientOutput.model_validate(
        {
            "name": arguments.name,
            "resource": resource,
            "reading_level": arguments.reading_level,
            "notice": NOT_MEDICAL_ADVICE,
            **{**sheet, "url": url},
            **provenance(answer, url),
        }
    )
