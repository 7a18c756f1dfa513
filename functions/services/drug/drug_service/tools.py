"""The drug tools: RxNav, openFDA and DailyMed through the shared backend client, answers via `parsing`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from xml.etree.ElementTree import ParseError

from drug_service import parsing
from drug_service.settings import settings
from mcp_platform.backends import backend_client, provenance
from mcp_platform.contracts._data import NOT_MEDICAL_ADVICE
from mcp_platform.contracts.drug import (
    LABEL_SECTIONS,
    DrugEventsInput,
    DrugEventsOutput,
    DrugGetInput,
    DrugGetOutput,
    DrugLabelInput,
    DrugLabelOutput,
    DrugRecallsInput,
    DrugRecallsOutput,
    DrugSearchInput,
    DrugSearchOutput,
)
from mcp_platform.outbound import upstream

if TYPE_CHECKING:
    from mcp_platform.backends import BackendResponse
    from mcp_platform.runtime.service import ServiceContext

RXNAV, OPENFDA, DAILYMED = "RxNav", "openFDA", "DailyMed"
RXNAV_SITE = "https://mor.nlm.nih.gov/RxNav/search?searchBy=RXCUI&searchTerm="
DAILYMED_SITE = "https://dailymed.nlm.nih.gov/dailymed/drugInfo.cfm?setid="
FAERS_CAVEAT = (
    "FAERS counts reports, not incidence: a report does not show that the drug caused the reaction, and "
    "reporting varies with publicity and time on the market."
)
_NO_MATCH = frozenset({404})


def drug_search(arguments: DrugSearchInput, ctx: ServiceContext) -> DrugSearchOutput:
    answer = _rxnav(ctx, "/REST/approximateTerm.json", {"term": arguments.name, "maxEntries": 20, "option": 1})
    candidates = parsing.approximate_candidates(answer.data)[: arguments.limit]
    results = []
    for candidate in candidates:
        concept = concept_named(candidate["rxcui"], ctx)
        if concept is None:  # a candidate RxNav itself no longer resolves
            continue
        results.append({**{k: v for k, v in candidate.items() if v is not None}, **concept})
    return DrugSearchOutput.model_validate(
        {
            "name": arguments.name,
            "count": len(results),
            "results": results,
            "notice": NOT_MEDICAL_ADVICE,
            **provenance(answer),
        }
    )


def drug_get(arguments: DrugGetInput, ctx: ServiceContext) -> DrugGetOutput:
    rxcui = arguments.rxcui
    answer = _rxnav(ctx, f"/REST/rxcui/{rxcui}/allrelated.json")
    related = parsing.related_by_tty(answer.data)
    own = next((c for group in related.values() for c in group if c["rxcui"] == rxcui), None)
    if own is None:
        own = concept_named(rxcui, ctx)
    if own is None and not related:
        raise upstream.not_found(f"concept with RxCUI {rxcui}", RXNAV)

    def pick(ttys: tuple[str, ...]) -> list[dict[str, str]]:
        return [c for tty in ttys for c in related.get(tty, [])]

    named = set(parsing.INGREDIENT_TTYS + parsing.BRAND_TTYS + parsing.DOSE_FORM_TTYS)
    return DrugGetOutput.model_validate(
        {
            "rxcui": rxcui,
            "name": (own or {}).get("name"),
            "tty": (own or {}).get("tty"),
            "ingredients": pick(parsing.INGREDIENT_TTYS),
            "brand_names": pick(parsing.BRAND_TTYS),
            "dose_forms": pick(parsing.DOSE_FORM_TTYS),
            "related": {tty: concepts for tty, concepts in related.items() if tty not in named},
            "notice": NOT_MEDICAL_ADVICE,
            **provenance(answer, RXNAV_SITE + rxcui),
        }
    )


def drug_label(arguments: DrugLabelInput, ctx: ServiceContext) -> DrugLabelOutput:
    if arguments.name:
        what, search = f"label for a drug named {arguments.name!r}", _names_query(arguments.name, "openfda.")
    elif arguments.rxcui:
        what, search = f"label for RxCUI {arguments.rxcui}", f'openfda.rxcui:"{arguments.rxcui}"'
    else:
        what, search = f"label with SPL set id {arguments.set_id}", f'openfda.spl_set_id:"{arguments.set_id}"'
    answer = _openfda(ctx, "/drug/label.json", {"search": search, "limit": 1})
    results = [] if parsing.fda_is_no_match(answer.status, answer.data) else parsing.fda_results(answer.data)
    if results:
        result = results[0]
        info = parsing.label_info(result)
        sections, missing = parsing.label_sections(result, arguments.sections, arguments.max_chars)
        return _label_output("openFDA", info, sections, missing, answer)
    if not arguments.set_id:
        raise upstream.not_found(what, OPENFDA)
    spl = backend_client("dailymed", settings()).get(
        f"/dailymed/services/v2/spls/{arguments.set_id}.xml",
        what=what,
        deadline=ctx.deadline_epoch,
        media_type="application/xml",
    )
    wanted, limit = arguments.sections, arguments.max_chars
    try:
        document = spl.decoded(
            f"spl:{','.join(wanted)}:{limit}", lambda body: parsing.spl_document(body, wanted, LABEL_SECTIONS, limit)
        )
    except ParseError:
        raise upstream.bad_answer(DAILYMED, "not SPL XML") from None
    return _label_output("DailyMed", document["info"], document["sections"], document["missing"], spl)


def drug_adverse_events(arguments: DrugEventsInput, ctx: ServiceContext) -> DrugEventsOutput:
    search = (
        _names_query(arguments.name, "patient.drug.openfda.")
        + f' patient.drug.medicinalproduct:"{_quoted(arguments.name)}"'
    )
    answer = _openfda(
        ctx,
        "/drug/event.json",
        {"search": search, "count": "patient.reaction.reactionmeddrapt.exact", "limit": arguments.top},
    )
    rows = [] if parsing.fda_is_no_match(answer.status, answer.data) else parsing.reactions(answer.data)
    return DrugEventsOutput.model_validate(
        {
            "name": arguments.name,
            "reactions": rows[: arguments.top],
            "caveat": FAERS_CAVEAT,
            "notice": NOT_MEDICAL_ADVICE,
            **provenance(answer),
        }
    )


def drug_recalls(arguments: DrugRecallsInput, ctx: ServiceContext) -> DrugRecallsOutput:
    search = _names_query(arguments.name, "openfda.") + f' product_description:"{_quoted(arguments.name)}"'
    answer = _openfda(
        ctx, "/drug/enforcement.json", {"search": search, "sort": "report_date:desc", "limit": arguments.limit}
    )
    empty = parsing.fda_is_no_match(answer.status, answer.data)
    return DrugRecallsOutput.model_validate(
        {
            "name": arguments.name,
            "total": 0 if empty else parsing.fda_total(answer.data),
            "recalls": [] if empty else parsing.recalls(answer.data),
            "notice": NOT_MEDICAL_ADVICE,
            **provenance(answer),
        }
    )


# ---------------------------------------------------------------- shared with ndc


def concept_named(rxcui: str, ctx: ServiceContext) -> dict[str, Any] | None:
    """{rxcui, name, tty} of a concept from `properties.json`; None when RxNav does not know it."""
    answer = _rxnav(ctx, f"/REST/rxcui/{rxcui}/properties.json")
    return parsing.concept_properties(answer.data)


def _rxnav(ctx: ServiceContext, path: str, params: dict[str, Any] | None = None) -> BackendResponse:
    return backend_client("rxnav", settings()).get(path, params, deadline=ctx.deadline_epoch)


def _openfda(ctx: ServiceContext, path: str, params: dict[str, Any]) -> BackendResponse:
    """An openFDA search: its 404 NOT_FOUND is the empty answer, anything else 4xx/5xx a failure."""
    answer = backend_client("openfda", settings()).get(path, params, accept=_NO_MATCH, deadline=ctx.deadline_epoch)
    if answer.status == 404 and not parsing.fda_is_no_match(answer.status, answer.data):
        raise upstream.http_failure(OPENFDA, 404)
    return answer


def _names_query(name: str, prefix: str) -> str:
    """`<prefix>brand_name:"x" <prefix>generic_name:"x"` (openFDA reads a space as OR)."""
    quoted = _quoted(name)
    return f'{prefix}brand_name:"{quoted}" {prefix}generic_name:"{quoted}"'


def _quoted(value: str) -> str:
    return value.replace('"', " ").replace("\\", " ").strip()


def _label_output(
    label_source: str,
    info: dict[str, Any],
    sections: list[dict[str, Any]],
    missing: list[str],
    answer: BackendResponse,
) -> DrugLabelOutput:
    set_id = info.get("set_id")
    url = DAILYMED_SITE + set_id if set_id else None
    return DrugLabelOutput.model_validate(
        {
            "label_source": label_source,
            "label": info,
            "sections": sections,
            "missing_sections": missing,
            "dailymed_url": url,
            "notice": NOT_MEDICAL_ADVICE,
            **provenance(answer, url),
        }
    )
