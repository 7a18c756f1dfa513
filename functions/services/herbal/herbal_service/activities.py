"""Constituent activities: herbal_by_activity and herbal_interactions."""

from __future__ import annotations

import json
from functools import cache
from typing import TYPE_CHECKING, Any

from herbal_service.cautions import CAUTIONS, Caution, caution_of
from herbal_service.herbs import resolve, summary
from herbal_service.store import get_db
from herbal_service.text import fold
from mcp_platform.protocol.errors import ErrorCode, ToolError

if TYPE_CHECKING:
    from herbal_service.store import HerbalDb
    from mcp_platform.contracts.herbal import ActivityInput, HerbInput
    from mcp_platform.runtime.service import ServiceContext

FINDINGS_SHOWN = 25
"""Findings listed per caution (by chemical name); `total` counts them all."""
_RANKED = """
SELECT h.*, ha.constituents, ha.chemicals FROM herb_activity ha JOIN herb h USING (herb_id)
WHERE ha.activity_key = ? ORDER BY ha.constituents DESC, ha.herb_id LIMIT ?
"""


def by_activity(args: ActivityInput, ctx: ServiceContext) -> dict[str, Any]:
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
        results.append(summary(row) | {"constituents": row["constituents"], "chemicals": chemicals})
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
def _findings_by_chemical(db: HerbalDb) -> dict[str, list[tuple[Caution, dict[str, Any]]]]:
    """Chemical → its interaction-relevant activity reports, built once per database (a few thousand).

    Also fills the connection's temporary table `caution_chem` with those chemicals.
    """
    cautions = {r[0]: c for r in db.all("SELECT DISTINCT activity FROM chem_activity") if (c := caution_of(r[0]))}
    marks = ",".join("?" * len(cautions)) or "NULL"
    rows = db.all(
        "SELECT a.chem, a.activity, a.dosage, a.reference, r.citation FROM chem_activity a"
        f" LEFT JOIN reference r ON r.reference = a.reference WHERE a.activity IN ({marks})"
        " GROUP BY a.chem, a.activity, a.reference ORDER BY a.chem, a.activity",
        tuple(cautions),
    )
    # The connection's own temporary table (the database file stays read-only): lets SQLite skip, inside
    # the index scan, a herb's constituents with no relevant activity (most of them).
    db.all("CREATE TEMP TABLE IF NOT EXISTS caution_chem (chem TEXT PRIMARY KEY) WITHOUT ROWID")
    db.all(f"INSERT OR IGNORE INTO temp.caution_chem SELECT chem FROM chem_activity WHERE activity IN ({marks})",
           tuple(cautions))  # fmt: skip
    out: dict[str, list[tuple[Caution, dict[str, Any]]]] = {}
    for r in rows:
        finding = {"activity": r["activity"], "dosage": r["dosage"], "reference": r["reference"],
                   "citation": r["citation"]}  # fmt: skip
        kept = {k: v for k, v in finding.items() if v}
        out.setdefault(r["chem"], []).append((cautions[r["activity"]], kept))
    return out


@cache
def _part_names(db: HerbalDb) -> dict[str, str]:
    return {r["code"]: r["name"] for r in db.all("SELECT code, name FROM part")}


def interactions(args: HerbInput, ctx: ServiceContext) -> dict[str, Any]:
    db = get_db()
    db.require("herbal_interactions", "AGGREGAC", "LINK")
    row, _ = resolve(db, args.herb)
    reports = _findings_by_chemical(db)
    part_names = _part_names(db)
    findings: dict[str, list[dict[str, Any]]] = {}
    totals: dict[str, int] = {}
    for chem, codes in db.all(
        "SELECT chem, group_concat(part_code) FROM constituent"
        " WHERE herb_id = ? AND chem IN (SELECT chem FROM temp.caution_chem) GROUP BY chem",
        (row["herb_id"],),
    ):
        parts = sorted({part_names.get(code, code) for code in (codes or "").split(",") if code})
        for caution, finding in reports[chem]:
            totals[caution.name] = totals.get(caution.name, 0) + 1
            listed = findings.setdefault(caution.name, [])
            if len(listed) < FINDINGS_SHOWN:
                listed.append({"chemical": chem, **finding, "parts": parts})
    count = sum(totals.values())
    cautions = [
        {"caution": c.name, "concern": c.concern, "drugs": c.drugs, "total": totals[c.name],
         "findings": findings[c.name]}
        for c in CAUTIONS
        if c.name in totals
    ]  # fmt: skip
    name = row["scientific_name"]
    if cautions:
        message = (f"{count} constituent reports in {len(cautions)} caution groups for {name}. They come from "
                   "activities reported for isolated chemicals (often in vitro or animal data, at doses unrelated to "
                   "the herb's content): each is a prompt to check an interaction reference or a pharmacist, not "
                   "evidence of a clinical interaction.")  # fmt: skip
    else:
        message = (f"No constituent of {name} has an interaction-relevant activity in Dr. Duke's database. That is "
                   "not evidence of safety: the database may simply not record it.")  # fmt: skip
    out = {"herb": summary(row), "count": count, "cautions": cautions, "message": message}
    return out | db.envelope(row["link_table"], "AGGREGAC", "REFERENCES")
