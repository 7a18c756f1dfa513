"""Constituent activities: herbal_by_activity and herbal_interactions."""

from __future__ import annotations

import json
from functools import cache
from typing import TYPE_CHECKING, Any

from herbal_service.cautions import CAUTIONS, Caution, caution_of
from herbal_service.herbs import resolve, summary
from herbal_service.store import get_db
from herbal_service.text import fold
from mcp_platform.errors import ErrorCode, ToolError

if TYPE_CHECKING:
    from herbal_service.store import HerbalDb
    from mcp_platform.contracts.herbal import ActivityInput, HerbInput
    from mcp_platform.service import CallContext

_RANKED = """
SELECT h.*, ha.constituents, ha.chemicals FROM herb_activity ha JOIN herb h USING (herb_id)
WHERE ha.activity_key = ? ORDER BY ha.constituents DESC, ha.herb_id LIMIT ?
"""
CHEMICALS_SHOWN = 10


def by_activity(args: ActivityInput, ctx: CallContext) -> dict[str, Any]:
    db = get_db()
    db.require("herbal_by_activity", "AGGREGAC", "LINK")
    activity = _activity(db, args.activity)
    total = db.one("SELECT COUNT(*) FROM herb_activity WHERE activity_key = ?", (activity["key"],))[0]
    if total == 0:
        raise ToolError(f"no herb in the database has a constituent with activity {activity['activity']!r}",
                        ErrorCode.NOT_FOUND)  # fmt: skip
    results = []
    for row in db.all(_RANKED, (activity["key"], args.limit)):
        chemicals = json.loads(row["chemicals"])
        results.append(summary(row) | {"constituents": row["constituents"], "chemicals": chemicals[:CHEMICALS_SHOWN]})
    out = {"activity": activity["activity"], "count": total, "results": results}
    if activity["definition"] and activity["definition"] != activity["activity"]:
        out["definition"] = activity["definition"]
    return out | db.envelope("AGGREGAC", "LINK", "ACTIVITIES")


def _activity(db: HerbalDb, wanted: str) -> Any:
    """The activity `wanted` names: exactly (case and punctuation aside), else the only one containing it."""
    key = fold(wanted)
    exact = db.one("SELECT * FROM activity WHERE key = ?", (key,))
    if exact is not None:
        return exact
    like = key.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    candidates = db.all("SELECT * FROM activity WHERE key LIKE ? ESCAPE '\\' ORDER BY length(key), key LIMIT 16",
                        (f"%{like}%",))  # fmt: skip
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        raise ToolError(f"activity: {wanted!r} is not an activity in Dr. Duke's database (e.g. Anticoagulant, "
                        "Sedative, MAO-Inhibitor, Hypoglycemic)", ErrorCode.NOT_FOUND)  # fmt: skip
    names = ", ".join(c["activity"] for c in candidates[:15])
    raise ToolError(f"activity: {wanted!r} fits several activities; name one of: {names}", ErrorCode.NOT_FOUND,
                    suggestions=[c["activity"] for c in candidates[:15]])  # fmt: skip


@cache
def _caution_activities(db: HerbalDb) -> dict[str, Caution]:
    """Activity name (as the dump spells it) → its caution, for every activity the database knows."""
    names = [r[0] for r in db.all("SELECT DISTINCT activity FROM chem_activity")]
    return {name: caution for name in names if (caution := caution_of(name)) is not None}


def interactions(args: HerbInput, ctx: CallContext) -> dict[str, Any]:
    db = get_db()
    db.require("herbal_interactions", "AGGREGAC", "LINK")
    row, _ = resolve(db, args.herb)
    relevant = _caution_activities(db)
    marks = ",".join("?" * len(relevant)) or "NULL"
    rows = db.all(
        "SELECT c.chem, group_concat(DISTINCT COALESCE(p.name, c.part_code)) AS parts, a.activity, a.dosage,"
        " a.reference, r.citation FROM constituent c JOIN chem_activity a ON a.chem = c.chem"
        " LEFT JOIN part p ON p.code = c.part_code LEFT JOIN reference r ON r.reference = a.reference"
        f" WHERE c.herb_id = ? AND a.activity IN ({marks}) GROUP BY c.chem, a.activity, a.reference"
        " ORDER BY c.chem, a.activity",
        (row["herb_id"], *relevant),
    )
    findings: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        finding = {
            "chemical": r["chem"],
            "activity": r["activity"],
            "parts": sorted(set((r["parts"] or "").split(",")) - {""}),
            "dosage": r["dosage"] or None,
            "reference": r["reference"] or None,
            "citation": r["citation"],
        }
        findings.setdefault(relevant[r["activity"]].name, []).append(
            {k: v for k, v in finding.items() if v is not None}
        )
    cautions = [
        {"caution": c.name, "concern": c.concern, "drugs": c.drugs, "findings": findings[c.name]}
        for c in CAUTIONS
        if c.name in findings
    ]
    name = row["scientific_name"]
    if cautions:
        message = (f"{len(rows)} constituent reports in {len(cautions)} caution groups for {name}. They come from "
                   "activities reported for isolated chemicals (often in vitro or animal data, at doses unrelated to "
                   "the herb's content): each is a prompt to check an interaction reference or a pharmacist, not "
                   "evidence of a clinical interaction.")  # fmt: skip
    else:
        message = (f"No constituent of {name} has an interaction-relevant activity in Dr. Duke's database. That is "
                   "not evidence of safety: the database may simply not record it.")  # fmt: skip
    out = {"herb": summary(row), "count": len(rows), "cautions": cautions, "message": message}
    return out | db.envelope(*db.link_origins(row["herb_id"]), "AGGREGAC", "REFERENCES")
