"""The plant tools: GBIF for names and taxa, POWO (else GBIF) for distributions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcp_platform.backends import describe, provenance
from mcp_platform.contracts._data import BackendInfo
from mcp_platform.contracts.plant import (
    PlantDistributionOutput,
    PlantGetOutput,
    PlantSearchOutput,
    PlantStatus,
)
from mcp_platform.protocol.errors import ErrorCode, ToolError
from plant_service import gbif, powo
from plant_service.settings import settings

if TYPE_CHECKING:
    from mcp_platform.contracts._common import StatusInput
    from mcp_platform.contracts.plant import PlantKeyInput, PlantSearchInput
    from mcp_platform.runtime.service import ServiceContext


def plant_search(args: PlantSearchInput, ctx: ServiceContext) -> PlantSearchOutput:
    answer = gbif.match(args.name, ctx.deadline_epoch)
    matches, note = gbif.parse_match(answer.data)
    return PlantSearchOutput(
        query=args.name, count=len(matches[: args.limit]), results=matches[: args.limit], note=note,
        **provenance(answer),
    )  # fmt: skip


def plant_get(args: PlantKeyInput, ctx: ServiceContext) -> PlantGetOutput:
    answer = gbif.usage(args.key, ctx.deadline_epoch)
    taxon = gbif.parse_usage(answer.data)
    synonyms = gbif.sub_resource(args.key, "synonyms", ctx.deadline_epoch).data
    names = gbif.sub_resource(args.key, "vernacularNames", ctx.deadline_epoch).data
    truncated = [label for label, data in (("synonyms", synonyms), ("vernacular_names", names)) if gbif.page(data)[1]]
    taxon.pop("kingdom")
    return PlantGetOutput(
        **taxon,
        synonyms=gbif.parse_synonyms(synonyms),
        vernacular_names=gbif.parse_vernacular(names),
        truncated=truncated,
        **provenance(answer, record_url=gbif.record_url(args.key)),
    )


def plant_distribution(args: PlantKeyInput, ctx: ServiceContext) -> PlantDistributionOutput:
    answer = gbif.usage(args.key, ctx.deadline_epoch)
    taxon = gbif.parse_usage(answer.data)
    prefix = ""
    if taxon["accepted_key"] and taxon["accepted_key"] != args.key:  # a synonym: where its accepted taxon grows
        prefix = f"{taxon['scientific_name']} is a synonym of {taxon['accepted']}; distribution of the accepted taxon. "
        answer = gbif.usage(taxon["accepted_key"], ctx.deadline_epoch)
        taxon = gbif.parse_usage(answer.data)
    key = taxon["key"]
    name = taxon["canonical_name"] or taxon["scientific_name"]
    found = _from_powo(taxon, name, ctx)
    if isinstance(found, PlantDistributionOutput):
        return found.model_copy(update={"key": args.key, "note": prefix + found.note})
    native, introduced, other = gbif.parse_distributions(
        gbif.sub_resource(key, "distributions", ctx.deadline_epoch).data
    )
    return PlantDistributionOutput(
        key=args.key, scientific_name=taxon["scientific_name"], distribution_source="gbif",
        native=native, introduced=introduced, other=other,
        note=f"{prefix}{found} GBIF checklist distributions instead (first {gbif.PAGE} records; sources differ in"
             " detail).",
        **provenance(answer, record_url=gbif.record_url(key)),
    )  # fmt: skip


def _from_powo(taxon: dict[str, object], name: str, ctx: ServiceContext) -> PlantDistributionOutput | str:
    """POWO's distribution for the taxon, or why there is none (the note of the GBIF fallback)."""
    kingdom = taxon.get("kingdom")
    if kingdom and kingdom not in powo.KINGDOMS:
        return f"POWO covers plants and fungi, not {kingdom}:"
    words = name.split()
    if not words or not words[0][:1].isupper():
        return f"{name!r} cannot be looked up in POWO by genus:"
    try:
        search = powo.search_accepted(words[0], words[1] if len(words) > 1 else None, ctx.deadline_epoch)
        fq_id = powo.link(search.data, name)
        if fq_id is None:
            return f"POWO has no accepted name {name!r}:"
        record = powo.taxon_distribution(fq_id, ctx.deadline_epoch)
    except ToolError as exc:
        if exc.code != ErrorCode.UPSTREAM_UNAVAILABLE:
            raise
        return f"Kew POWO did not answer ({exc.message}):"
    if record.status in powo.NO_RECORD:
        return f"POWO has no record {fq_id}:"
    native, introduced, other = powo.parse_distribution(record.data)
    if not (native or introduced or other):
        return f"POWO's record {fq_id} has no distribution:"
    return PlantDistributionOutput(
        key=int(str(taxon["key"])), scientific_name=str(taxon["scientific_name"]), distribution_source="powo",
        ipni_id=fq_id.rsplit(":", 1)[-1], native=native, introduced=introduced, other=other,
        note=f"World Checklist distribution (TDWG level-3 regions) of POWO's record for {name}, linked by name.",
        **provenance(record, record_url=powo.record_url(fq_id)),
    )  # fmt: skip


def plant_status(_args: StatusInput, _ctx: ServiceContext) -> PlantStatus:
    backends = [BackendInfo.model_validate(describe(name, settings())) for name in ("gbif", "powo")]
    return PlantStatus(backends=backends, cache_table=settings().backend_cache_table or None)
