"""RxNav, openFDA and DailyMed answers → plain data. Pure functions; no I/O.

RxNav says "nothing" by leaving keys out (`{"idGroup": {}}`, a concept group without
`conceptProperties`, `{}` for an unknown RxCUI); ids and scores are strings. openFDA answers
`{"meta", "results"}`, text fields as arrays of strings, and "no matches" as HTTP 404. DailyMed
serves HL7 v3 SPL XML whose sections carry LOINC codes.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

INGREDIENT_TTYS = ("IN", "PIN", "MIN")
BRAND_TTYS = ("BN",)
DOSE_FORM_TTYS = ("DF", "DFG")
_HL7 = "{urn:hl7-org:v3}"
_SPACES = re.compile(r"[ \t\r\f\v]+")
_BLANK_LINES = re.compile(r"\n\s*\n+")


# ---------------------------------------------------------------- RxNav


def approximate_candidates(data: Any) -> list[dict[str, Any]]:
    """Candidates of `approximateGroup`, one per RxCUI (its best rank), best first."""
    group = (data or {}).get("approximateGroup") or {}
    best: dict[str, dict[str, Any]] = {}
    for candidate in _list(group.get("candidate")):
        rxcui = str(candidate.get("rxcui") or "")
        if not rxcui:
            continue
        entry: dict[str, Any] = {
            "rxcui": rxcui,
            "rank": _int(candidate.get("rank")),
            "score": _float(candidate.get("score")),
            "name": candidate.get("name") or None,  # current RxNav adds name (and source) per candidate
        }
        kept = best.get(rxcui)
        if kept is None or (entry["rank"] or 10**9) < (kept["rank"] or 10**9):
            best[rxcui] = {**entry, "name": entry["name"] or (kept or {}).get("name")}
    return sorted(best.values(), key=lambda c: (c["rank"] or 10**9, -(c["score"] or 0)))


def concept_properties(data: Any) -> dict[str, Any] | None:
    """`{"properties": {rxcui, name, tty, ...}}` → {rxcui, name, tty}; None for the unknown-RxCUI `{}`."""
    props = (data or {}).get("properties") or {}
    if not props.get("rxcui") or not props.get("name"):
        return None
    return {"rxcui": str(props["rxcui"]), "name": str(props["name"]), "tty": str(props.get("tty") or "") or None}


def related_by_tty(data: Any) -> dict[str, list[dict[str, str]]]:
    """`allRelatedGroup.conceptGroup[]` (or `drugGroup`) → {tty: [{rxcui, name, tty}]}; empty groups dropped."""
    groups = _list(((data or {}).get("allRelatedGroup") or (data or {}).get("drugGroup") or {}).get("conceptGroup"))
    out: dict[str, list[dict[str, str]]] = {}
    for group in groups:
        members = _list(group.get("conceptProperties"))
        if not members:
            continue  # {"tty": "BPCK"}: the group exists, no concept in it
        tty = str(group.get("tty") or "")
        out.setdefault(tty, []).extend(
            {"rxcui": str(m["rxcui"]), "name": str(m["name"]), "tty": str(m.get("tty") or tty)} for m in members
        )
    return out


def ndc_status(data: Any) -> dict[str, Any] | None:
    """`ndcStatus` → our fields; None when RxNav does not know the NDC (status UNKNOWN or absent)."""
    status = (data or {}).get("ndcStatus") or {}
    if not status.get("status") or str(status["status"]).upper() == "UNKNOWN":
        return None
    out: dict[str, Any] = {
        "status": str(status["status"]).upper(),
        "active": str(status.get("active")).upper() == "YES",
    }
    for field, key in (("ndc11", "ndc11"), ("rxcui", "rxcui"), ("concept_name", "conceptName")):
        if status.get(key):
            out[field] = str(status[key])
    out["history"] = [
        {k: str(v) for k, v in item.items() if v not in (None, "")} for item in _list(status.get("ndcHistory"))
    ]
    return out


def ndc_properties(data: Any) -> dict[str, Any] | None:
    """The first `ndcPropertyList.ndcProperty` → packaging, labeler, marketing fields; None when absent."""
    items = _list(((data or {}).get("ndcPropertyList") or {}).get("ndcProperty"))
    if not items:
        return None
    item = items[0]
    concepts = {
        c.get("propName"): c.get("propValue")
        for c in _list((item.get("propertyConceptList") or {}).get("propertyConcept"))
    }
    out: dict[str, Any] = {
        "ndc10": item.get("ndc10"),
        "ndc11": item.get("ndcItem"),
        "rxcui": item.get("rxcui"),
        "spl_set_id": item.get("splSetIdItem"),
        "labeler": concepts.get("LABELER"),
        "marketing_category": concepts.get("MARKETING_CATEGORY"),
        "marketing_status": concepts.get("MARKETING_STATUS"),
        "product_type": concepts.get("LABEL_TYPE"),
        "packaging": [{"description": str(p)} for p in _list((item.get("packagingList") or {}).get("packaging"))],
    }
    return {k: v for k, v in out.items() if v not in (None, "", [])}


# ---------------------------------------------------------------- openFDA


def fda_results(data: Any) -> list[dict[str, Any]]:
    return list((data or {}).get("results") or [])


def fda_total(data: Any) -> int:
    return int((((data or {}).get("meta") or {}).get("results") or {}).get("total") or 0)


def fda_is_no_match(status: int, data: Any) -> bool:
    """openFDA's empty answer: HTTP 404 with `error.code` NOT_FOUND ("No matches found!")."""
    return status == 404 and ((data or {}).get("error") or {}).get("code") == "NOT_FOUND"


def label_info(result: dict[str, Any]) -> dict[str, Any]:
    fda = result.get("openfda") or {}
    info = {
        "brand_names": list(fda.get("brand_name") or []),
        "generic_names": list(fda.get("generic_name") or []),
        "manufacturer": _first(fda.get("manufacturer_name")),
        "product_type": _first(fda.get("product_type")),
        "routes": list(fda.get("route") or []),
        "set_id": result.get("set_id") or _first(fda.get("spl_set_id")),
        "version": str(result["version"]) if result.get("version") else None,
        "effective_time": _date(result.get("effective_time")),
    }
    return {k: v for k, v in info.items() if v not in (None, "")}


def label_sections(result: dict[str, Any], wanted: list[str], max_chars: int) -> tuple[list[dict[str, Any]], list[str]]:
    """The wanted openFDA label fields (arrays of strings) as sections, and the names it lacks."""
    sections, missing = [], []
    for name in wanted:
        texts = result.get(name)
        if not texts:
            missing.append(name)
            continue
        sections.append(_section(name, None, "\n\n".join(str(t).strip() for t in texts), max_chars))
    return sections, missing


def reactions(data: Any) -> list[dict[str, Any]]:
    """A `count=patient.reaction.reactionmeddrapt.exact` answer: [{reaction, count}], most first."""
    rows = [{"reaction": str(r["term"]), "count": int(r["count"])} for r in fda_results(data) if "term" in r]
    return sorted(rows, key=lambda r: -r["count"])


RECALL_FIELDS = (
    "recall_number",
    "status",
    "classification",
    "product_description",
    "reason_for_recall",
    "recalling_firm",
    "distribution_pattern",
    "voluntary_mandated",
    "product_quantity",
)


def recalls(data: Any) -> list[dict[str, Any]]:
    """Enforcement reports, newest `report_date` first, dates as YYYY-MM-DD."""
    out = []
    for result in fda_results(data):
        item = {k: str(result[k]).strip() for k in RECALL_FIELDS if result.get(k)}
        for key in ("report_date", "recall_initiation_date"):
            if date := _date(result.get(key)):
                item[key] = date
        out.append(item)
    return sorted(out, key=lambda r: r.get("report_date") or "", reverse=True)


def ndc_product(result: dict[str, Any]) -> dict[str, Any]:
    """An openFDA NDC directory product → our fields."""
    out: dict[str, Any] = {
        "brand_name": result.get("brand_name"),
        "generic_name": result.get("generic_name"),
        "labeler": result.get("labeler_name"),
        "dosage_form": result.get("dosage_form"),
        "routes": list(result.get("route") or []),
        "marketing_category": result.get("marketing_category"),
        "product_type": result.get("product_type"),
        "active_ingredients": [
            {k: str(v) for k, v in ing.items() if k in ("name", "strength") and v}
            for ing in result.get("active_ingredients") or []
            if ing.get("name")
        ],
        "packaging": [
            {"package_ndc": str(p["package_ndc"]), "description": str(p.get("description") or "")}
            for p in result.get("packaging") or []
            if p.get("package_ndc")
        ],
        "spl_set_id": _first((result.get("openfda") or {}).get("spl_set_id")),
    }
    return {k: v for k, v in out.items() if v not in (None, "", [])}


# ---------------------------------------------------------------- DailyMed SPL


def spl_document(xml: bytes, wanted: list[str], codes: dict[str, str], max_chars: int) -> dict[str, Any]:
    """An SPL document → {info, sections, missing}: sections found by their LOINC `code`."""
    root = ET.fromstring(xml)
    info: dict[str, Any] = {}
    if (set_id := root.find(f"{_HL7}setId")) is not None and set_id.get("root"):
        info["set_id"] = set_id.get("root")
    if (version := root.find(f"{_HL7}versionNumber")) is not None and version.get("value"):
        info["version"] = version.get("value")
    if (effective := root.find(f"{_HL7}effectiveTime")) is not None and (date := _date(effective.get("value"))):
        info["effective_time"] = date
    if (code := root.find(f"{_HL7}code")) is not None and code.get("displayName"):
        info["product_type"] = code.get("displayName")
    title = _text(root.find(f"{_HL7}title"))
    if title:
        info["title"] = title
    by_code: dict[str, ET.Element] = {}
    for section in root.iter(f"{_HL7}section"):
        section_code = section.find(f"{_HL7}code")
        if section_code is not None and section_code.get("code"):
            by_code.setdefault(str(section_code.get("code")), section)
    sections, missing = [], []
    for name in wanted:
        element = by_code.get(codes[name])
        if element is None:
            missing.append(name)
            continue
        heading = _text(element.find(f"{_HL7}title")) or None
        body = _section_text(element)
        if not body:
            missing.append(name)
            continue
        sections.append(_section(name, heading, body, max_chars))
    return {"info": info, "sections": sections, "missing": missing}


def _section_text(section: ET.Element) -> str:
    """All text of a section and its subsections, one block per line; the section's own title and
    the Highlights excerpts (`<excerpt>`, a summary repeated from the full text) are left out."""
    parts: list[str] = []

    def walk(element: ET.Element) -> None:
        for child in element:
            tag = child.tag.removeprefix(_HL7)
            if tag == "excerpt":
                continue
            if tag in ("paragraph", "title", "item", "td", "th", "caption") and (text := _text(child)):
                parts.append(text)
                if tag in ("paragraph", "title"):
                    continue
            walk(child)

    walk(section)
    own_title = _text(section.find(f"{_HL7}title"))
    blocks = [p for p in dict.fromkeys(parts) if p != own_title]
    return _BLANK_LINES.sub("\n\n", "\n".join(blocks).strip())


def _text(element: ET.Element | None) -> str:
    if element is None:
        return ""
    return _SPACES.sub(" ", "".join(element.itertext())).strip()


# ---------------------------------------------------------------- helpers


def _section(name: str, title: str | None, text: str, max_chars: int) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name, "text": text[:max_chars], "truncated": len(text) > max_chars}
    if title:
        out["title"] = title
    return out


def _date(value: Any) -> str | None:
    """openFDA/SPL dates `20190913` → `2019-09-13`; anything else as given (None when empty)."""
    text = str(value or "").strip()
    if re.fullmatch(r"\d{8}", text[:8]) and len(text) >= 8:
        return f"{text[:4]}-{text[4:6]}-{text[6:8]}"
    return text or None


def _list(value: Any) -> list[Any]:
    """RxNav lists; a converter that collapses one-element arrays gives the element itself."""
    if value is None or value == "":
        return []
    return value if isinstance(value, list) else [value]


def _first(values: Any) -> str | None:
    """The first of an openFDA list field; some endpoints give the same field as a plain string."""
    if isinstance(values, str):
        return values or None
    return str(values[0]) if isinstance(values, list) and values else None


def _int(value: Any) -> int | None:
    try:
        return int(str(value))
    except ValueError:
        return None


def _float(value: Any) -> float | None:
    try:
        return float(str(value))
    except ValueError:
        return None
