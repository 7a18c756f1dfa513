"""The compound tools: PubChem requests through the shared backend client, answers via `parsing`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from compound_service import parsing
from compound_service.settings import settings
from mcp_platform.backends import backend_client, provenance
from mcp_platform.contracts.compound import (
    CompoundProperties,
    CompoundRefInput,
    CompoundSafety,
    CompoundSearchInput,
    CompoundSearchOutput,
)
from mcp_platform.outbound import upstream
from mcp_platform.protocol.errors import ErrorCode, ToolError

if TYPE_CHECKING:
    from mcp_platform.backends import BackendResponse
    from mcp_platform.runtime.service import ServiceContext

LABEL = "PubChem"
PROPERTIES = (
    "Title,MolecularFormula,MolecularWeight,ExactMass,SMILES,ConnectivitySMILES,InChI,InChIKey,IUPACName,"
    "XLogP,TPSA,HBondDonorCount,HBondAcceptorCount,RotatableBondCount,HeavyAtomCount,Charge"
)
_NOT_FOUND = 404
_BAD_REQUEST = 400


def compound_search(arguments: CompoundSearchInput, ctx: ServiceContext) -> CompoundSearchOutput:
    answer = _identify(arguments.by, arguments.query.strip(), ctx)
    cids = (parsing.record_cids if arguments.by in ("smiles", "inchikey") else parsing.identifier_cids)(_data(answer))[
        : arguments.limit
    ]
    hits: list[dict[str, Any]] = [{"cid": cid} for cid in cids]
    if cids:
        titles = _get(f"/rest/pug/compound/cid/{','.join(map(str, cids))}/property/Title,MolecularFormula/JSON", ctx)
        named = {row["cid"]: row for row in parsing.property_rows(titles.data)}
        hits = [
            {"cid": cid, **{k: v for k, v in named.get(cid, {}).items() if k in ("title", "formula")}} for cid in cids
        ]
    return CompoundSearchOutput.model_validate(
        {
            "query": arguments.query,
            "by": arguments.by,
            "count": len(hits),
            "results": hits,
            **provenance(answer),
        }
    )


def compound_properties(arguments: CompoundRefInput, ctx: ServiceContext) -> CompoundProperties:
    if arguments.cid is not None:
        path, what = f"/rest/pug/compound/cid/{arguments.cid}/property/{PROPERTIES}/JSON", _cid_what(arguments.cid)
    else:
        name = arguments.name or ""
        path, what = f"/rest/pug/compound/name/{_segment(name)}/property/{PROPERTIES}/JSON", _name_what(name)
    answer = _get(path, ctx, what=what)
    rows = parsing.property_rows(answer.data)
    if not rows:
        raise upstream.not_found(what, LABEL)
    first, others = rows[0], [row["cid"] for row in rows[1:]]
    return CompoundProperties.model_validate(
        {**first, **({"other_cids": others} if others else {}), **provenance(answer, parsing.record_url(first["cid"]))}
    )


def compound_safety(arguments: CompoundRefInput, ctx: ServiceContext) -> CompoundSafety:
    cid = arguments.cid if arguments.cid is not None else _cid_for_name(arguments.name or "", ctx)
    answer = _get(
        f"/rest/pug_view/data/compound/{cid}/JSON",
        ctx,
        params={"heading": "GHS Classification"},
        accept={_NOT_FOUND},
    )
    data = _data(answer)
    classifications = parsing.ghs_classifications(data)
    # PUG-View answers "No data found" both for a compound without GHS data and for no compound at all.
    title = parsing.record_title(data) if answer.status != _NOT_FOUND else _title(cid, ctx)
    return CompoundSafety.model_validate(
        {
            "cid": cid,
            "title": title,
            "status": parsing.safety_status(classifications),
            "signal_word": parsing.strongest_signal(classifications),
            "pictograms": parsing.all_pictograms(classifications),
            "classifications": classifications,
            **provenance(answer, parsing.record_url(cid)),
        }
    )


# ---------------------------------------------------------------- requests


def _identify(by: str, query: str, ctx: ServiceContext) -> BackendResponse:
    """The id search: fast formula search, name → cids, or the record of a SMILES / InChIKey."""
    params: dict[str, str] = {}
    if by == "formula":
        path = f"/rest/pug/compound/fastformula/{_segment(query)}/cids/JSON"
    elif by == "name":
        path = f"/rest/pug/compound/name/{_segment(query)}/cids/JSON"
    elif by == "smiles" and "/" in query:
        path, params = "/rest/pug/compound/smiles/JSON", {"smiles": query}  # '/' cannot travel in the path
    else:
        path = f"/rest/pug/compound/{by}/{_segment(query)}/JSON"
    answer = _get(path, ctx, params=params, accept={_NOT_FOUND, _BAD_REQUEST})
    if answer.status == _BAD_REQUEST:
        detail = parsing.fault_message(answer.data) or "bad request"
        raise ToolError(f"query: PubChem cannot read {query!r} as a {by} ({detail})", ErrorCode.INVALID_ARGUMENTS)
    return answer


def _cid_for_name(name: str, ctx: ServiceContext) -> int:
    answer = _get(f"/rest/pug/compound/name/{_segment(name)}/cids/JSON", ctx, what=_name_what(name))
    cids = parsing.identifier_cids(answer.data)
    if not cids:
        raise upstream.not_found(_name_what(name), LABEL)
    return cids[0]


def _title(cid: int, ctx: ServiceContext) -> str | None:
    """The compound's title; `not_found` when PubChem has no such CID."""
    answer = _get(f"/rest/pug/compound/cid/{cid}/property/Title/JSON", ctx, what=_cid_what(cid))
    rows = parsing.property_rows(answer.data)
    if not rows:
        raise upstream.not_found(_cid_what(cid), LABEL)
    return rows[0].get("title")


def _get(
    path: str,
    ctx: ServiceContext,
    *,
    params: dict[str, Any] | None = None,
    what: str | None = None,
    accept: set[int] | None = None,
) -> BackendResponse:
    return backend_client("pubchem", settings()).get(
        path, params, what=what, accept=accept or (), deadline=ctx.deadline_epoch
    )


def _data(answer: BackendResponse) -> Any:
    """The JSON of an answer; a 404 whose Fault is anything but NotFound is an upstream failure."""
    data = answer.data
    if answer.status == _NOT_FOUND and not (parsing.fault_code(data) or "").endswith("NotFound"):
        raise upstream.http_failure(LABEL, _NOT_FOUND)
    return {} if answer.status == _NOT_FOUND else data


def _segment(value: str) -> str:
    return quote(value, safe="")


def _cid_what(cid: int) -> str:
    return f"compound with CID {cid}"


def _name_what(name: str) -> str:
    return f"compound named {name!r}"
