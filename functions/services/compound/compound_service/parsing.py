"""PubChem answers → plain data. Pure functions over parsed JSON; no I/O.

Shapes (see /work/shared/recordings/README.md): `IdentifierList.CID` (CID 0 = no match),
`PC_Compounds[].id.id.cid` (a record PubChem standardised but does not hold has `id: {}`),
`PropertyTable.Properties[]` (weights are strings; old and new SMILES key names both occur),
`Fault.Code` on errors, and the PUG-View record tree with the GHS Classification section.
"""

from __future__ import annotations

import re
from typing import Any

PUBLIC_SITE = "https://pubchem.ncbi.nlm.nih.gov"
"""Record pages are linked on the public site even when the API comes from a mirror."""
_SIGNAL_RANK = {"danger": 2, "warning": 1}
_HAZARD = re.compile(
    r"^(?P<code>(?:EU)?H\d{3}[A-Za-z]*(?:\s*\+\s*(?:EU)?H\d{3}[A-Za-z]*)*)"
    r"(?P<stars>\s*\*+)?(?:\s*\((?:>\s*)?(?P<share>\d+(?:\.\d+)?)%\))?\s*:\s*"
    r"(?P<text>(?:.*?\S)??)\s*+(?:\[(?P<cls>[^\[\]]*+)\])?\s*+$"
)
r"""The text ends at a non-space and the tail's spaces and class are read without backtracking: with
`(?P<text>.*?)\s*(...)?\s*$` every space was tried as the text's end, then split between the two `\s*`
(17 s on 2,000 spaces, cubic). A class holds no `[`, so a run of `[` is read once."""
_PRECAUTION = re.compile(r"P\d{3}(?:\s*\+\s*P\d{3})*")
_PICTOGRAM = re.compile(r"(GHS\d{2})")


def record_url(cid: int) -> str:
    return f"{PUBLIC_SITE}/compound/{cid}"


def fault_code(data: Any) -> str | None:
    """`PUGREST.NotFound`, `PUGVIEW.NotFound`, `PUGREST.BadRequest`, ... or None."""
    fault = data.get("Fault") if isinstance(data, dict) else None
    return str(fault.get("Code")) if isinstance(fault, dict) and fault.get("Code") else None


def fault_message(data: Any) -> str:
    fault = data.get("Fault") if isinstance(data, dict) else None
    if not isinstance(fault, dict):
        return ""
    details = fault.get("Details") or []
    return "; ".join(str(part) for part in [fault.get("Message"), *details] if part)


def identifier_cids(data: Any) -> list[int]:
    """CIDs of an `IdentifierList` answer, the sentinel 0 dropped, order kept, duplicates removed."""
    raw = ((data or {}).get("IdentifierList") or {}).get("CID") or []
    return _unique(int(cid) for cid in raw if int(cid) > 0)


def record_cids(data: Any) -> list[int]:
    """CIDs of a `PC_Compounds` record answer; a structure PubChem does not hold has no cid."""
    cids = []
    for compound in (data or {}).get("PC_Compounds") or []:
        cid = ((compound.get("id") or {}).get("id") or {}).get("cid")
        if isinstance(cid, int) and cid > 0:
            cids.append(cid)
    return _unique(cids)


def property_rows(data: Any) -> list[dict[str, Any]]:
    """`PropertyTable.Properties` rows mapped to our field names (absent properties stay absent)."""
    return [_properties(row) for row in ((data or {}).get("PropertyTable") or {}).get("Properties") or []]


def _properties(row: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"cid": int(row["CID"])}
    pairs = {
        "title": ("Title",),
        "formula": ("MolecularFormula",),
        "smiles": ("SMILES", "IsomericSMILES"),
        "connectivity_smiles": ("ConnectivitySMILES", "CanonicalSMILES"),
        "inchi": ("InChI",),
        "inchikey": ("InChIKey",),
        "iupac_name": ("IUPACName",),
    }
    for field, keys in pairs.items():
        value = next((row[k] for k in keys if row.get(k) not in (None, "")), None)
        if value is not None:
            out[field] = str(value)
    numbers = {
        "molecular_weight": "MolecularWeight",
        "exact_mass": "ExactMass",
        "xlogp": "XLogP",
        "tpsa": "TPSA",
    }
    for field, key in numbers.items():
        if row.get(key) not in (None, ""):
            out[field] = float(row[key])  # weights and masses arrive as strings
    counts = {
        "hbond_donors": "HBondDonorCount",
        "hbond_acceptors": "HBondAcceptorCount",
        "rotatable_bonds": "RotatableBondCount",
        "heavy_atoms": "HeavyAtomCount",
        "charge": "Charge",
    }
    for field, key in counts.items():
        if row.get(key) is not None:
            out[field] = int(row[key])
    return out


# ---------------------------------------------------------------- PUG-View GHS


def record_title(data: Any) -> str | None:
    record = (data or {}).get("Record") or {}
    return record.get("RecordTitle")


def ghs_classifications(data: Any) -> list[dict[str, Any]]:
    """One classification per reference (source) of the record's GHS Classification section; [] if none."""
    record = (data or {}).get("Record") or {}
    section = _find_section(record.get("Section") or [], "GHS Classification")
    if section is None:
        return []
    sources = {ref.get("ReferenceNumber"): ref.get("SourceName", "") for ref in record.get("Reference") or []}
    by_reference: dict[int, dict[str, Any]] = {}
    for info in section.get("Information") or []:
        number = int(info.get("ReferenceNumber") or 0)
        entry = by_reference.setdefault(
            number,
            {
                "source": sources.get(number) or "PubChem",
                "reference_number": number,
                "pictograms": [],
                "hazard_statements": [],
                "precautionary_codes": [],
            },
        )
        _add_information(entry, str(info.get("Name") or ""), (info.get("Value") or {}).get("StringWithMarkup") or [])
    return [entry for entry in by_reference.values() if _classifies(entry)]


def _add_information(entry: dict[str, Any], name: str, values: list[dict[str, Any]]) -> None:
    texts = [str(v.get("String") or "").strip() for v in values]
    if name == "Pictogram(s)":
        _add_pictograms(entry["pictograms"], values)
    elif name == "Signal":
        if signal := next((t for t in texts if t), None):
            entry["signal_word"] = signal
    elif name == "GHS Hazard Statements":
        for text in filter(None, texts):
            if (statement := hazard_statement(text)) is not None:
                entry["hazard_statements"].append(statement)
            else:  # "Not Classified", "Reported as not meeting GHS hazard criteria by ..."
                entry.setdefault("notes", []).append(text)
    elif name == "Precautionary Statement Codes":
        codes = [re.sub(r"\s+", "", code) for text in texts for code in _PRECAUTION.findall(text)]
        entry["precautionary_codes"].extend(c for c in dict.fromkeys(codes) if c not in entry["precautionary_codes"])
    elif name.endswith("Notifications Summary") and texts:
        entry["notifications"] = texts[0]


def _add_pictograms(pictograms: list[dict[str, str]], values: list[dict[str, Any]]) -> None:
    """Icons are markup of the value: `URL .../GHS02.svg`, `Extra` the pictogram's name."""
    for markup in (m for value in values for m in value.get("Markup") or []):
        found = _PICTOGRAM.search(str(markup.get("URL") or ""))
        if found and all(p["code"] != found.group(1) for p in pictograms):
            pictograms.append({"code": found.group(1), "name": str(markup.get("Extra") or "")})


def hazard_statement(text: str) -> dict[str, Any] | None:
    """`H319 (91.2%): Causes serious eye irritation [Warning ...]` → code, share, text, class."""
    match = _HAZARD.match(text)
    if match is None:
        return None
    out: dict[str, Any] = {"code": re.sub(r"\s+", "", match["code"]), "text": match["text"]}
    if match["cls"]:
        out["hazard_class"] = match["cls"]
    if match["share"]:
        out["share_percent"] = float(match["share"])  # "(> 99.9%)" gives its bound, 99.9
    if match["stars"]:
        out["minimum_classification"] = True  # EU CLP "*"/"**": the classification is a minimum
    return out


def strongest_signal(classifications: list[dict[str, Any]]) -> str | None:
    words = [c["signal_word"] for c in classifications if c.get("signal_word")]
    return max(words, key=lambda w: _SIGNAL_RANK.get(w.lower(), 0), default=None)


def all_pictograms(classifications: list[dict[str, Any]]) -> list[dict[str, str]]:
    seen: dict[str, dict[str, str]] = {}
    for classification in classifications:
        for pictogram in classification["pictograms"]:
            seen.setdefault(pictogram["code"], pictogram)
    return sorted(seen.values(), key=lambda p: p["code"])


def _classifies(entry: dict[str, Any]) -> bool:
    return bool(entry["pictograms"] or entry["hazard_statements"] or entry.get("signal_word") or entry.get("notes"))


def safety_status(classifications: list[dict[str, Any]]) -> str:
    """classified (some source gives hazards), not_classified (sources say it is not), or no_ghs_data."""
    if any(c["hazard_statements"] or c["pictograms"] for c in classifications):
        return "classified"
    return "not_classified" if classifications else "no_ghs_data"


def _find_section(sections: list[dict[str, Any]], heading: str) -> dict[str, Any] | None:
    for section in sections:
        if section.get("TOCHeading") == heading:
            return section
        if (found := _find_section(section.get("Section") or [], heading)) is not None:
            return found
    return None


def _unique(values: Any) -> list[int]:
    return list(dict.fromkeys(values))
