"""drug_ndc: RxNav NDC status and properties, then the openFDA NDC directory, merged."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from drug_service import parsing
from drug_service.tools import RXNAV, _openfda, _rxnav
from mcp_platform.backends import provenance
from mcp_platform.contracts._data import NOT_MEDICAL_ADVICE
from mcp_platform.contracts.drug import DrugNdcInput, DrugNdcOutput
from mcp_platform.outbound import upstream

if TYPE_CHECKING:
    from mcp_platform.runtime.service import ServiceContext

NDC_SITE = "https://dailymed.nlm.nih.gov/dailymed/search.cfm?labeltype=all&query="


def drug_ndc(arguments: DrugNdcInput, ctx: ServiceContext) -> DrugNdcOutput:
    ndc = arguments.ndc
    status_answer = _rxnav(ctx, "/REST/ndcstatus.json", {"ndc": ndc.replace("-", "") if _is_package(ndc) else ndc})
    status = parsing.ndc_status(status_answer.data) if _is_package(ndc) else None
    props = parsing.ndc_properties(_rxnav(ctx, "/REST/ndcproperties.json", {"id": ndc}).data)
    merged: dict[str, Any] = {"ndc": ndc, "sources": []}
    if status:
        merged.update(status)
        merged["sources"].append("RxNav NDC status")
    if props:
        merged.update({k: v for k, v in props.items() if k not in merged or k == "packaging"})
        merged["sources"].append("RxNav NDC properties")
    product_ndc = _product_ndc(merged.get("ndc10") or ndc)
    fda_answer = None
    if product_ndc:
        fda_answer = _openfda(ctx, "/drug/ndc.json", {"search": f'product_ndc:"{product_ndc}"', "limit": 1})
        results = (
            [] if parsing.fda_is_no_match(fda_answer.status, fda_answer.data) else parsing.fda_results(fda_answer.data)
        )
        if results:
            product = parsing.ndc_product(results[0])
            packages = product.pop("packaging", [])
            merged.update({k: v for k, v in product.items() if k not in merged})
            if packages:
                merged["packaging"] = _mine(packages, merged.get("ndc10") or ndc) or packages
            merged["sources"].append("openFDA NDC directory")
    if not merged["sources"]:
        raise upstream.not_found(f"National Drug Code {ndc}", f"{RXNAV} or openFDA")
    answer = status_answer if status or props or fda_answer is None else fda_answer
    return DrugNdcOutput(notice=NOT_MEDICAL_ADVICE, **merged, **provenance(answer, NDC_SITE + ndc))


def _is_package(ndc: str) -> bool:
    """A package NDC (11 digits, or 10 with two hyphens), not a product NDC (labeler-product)."""
    return ndc.count("-") == 2 or (ndc.isdigit() and len(ndc) == 11)


def _product_ndc(ndc: str) -> str | None:
    """`37000-653-04` → `37000-653`; an 11-digit NDC has no unambiguous hyphenation (None)."""
    parts = ndc.split("-")
    return "-".join(parts[:2]) if len(parts) >= 2 else None


def _mine(packages: list[dict[str, str]], ndc: str) -> list[dict[str, str]]:
    """The package rows for the NDC asked about, when it is a package NDC."""
    return [p for p in packages if p.get("package_ndc") == ndc]
