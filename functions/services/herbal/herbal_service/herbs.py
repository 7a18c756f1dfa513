"""Finding herbs by name: herbal_search, and the name → herb step of every other tool."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from herbal_service.store import get_db
from herbal_service.text import fold, fts_query
from mcp_platform.protocol.errors import ErrorCode, ToolError

if TYPE_CHECKING:
    from herbal_service.store import HerbalDb
    from mcp_platform.contracts.herbal import HerbInput, SearchInput
    from mcp_platform.runtime.service import ServiceContext

USES_SHOWN = 100
_EXACT = """
SELECT h.*, MIN(k.kind) AS kind FROM name_key k JOIN herb h USING (herb_id)
WHERE k.key = ? GROUP BY h.herb_id ORDER BY kind, length(h.scientific_name), h.herb_id LIMIT ?
"""
_WORDS = """
SELECT h.* FROM herb_fts JOIN herb h ON h.herb_id = herb_fts.rowid
WHERE herb_fts MATCH ?1 ORDER BY CASE WHEN ?2 THEN length(h.scientific_name) END, bm25(herb_fts, 2.0, 1.0), h.herb_id
LIMIT ?3
"""


def summary(row: Any) -> dict[str, Any]:
    """A herb as lists show it (nulls dropped)."""
    out = {
        "herb_id": row["herb_id"],
        "fnfnum": row["fnfnum"],
        "scientific_name": row["scientific_name"],
        "author": row["author"],
        "family": row["family"],
        "common_names": json.loads(row["common_names"]),
    }
    return {k: v for k, v in out.items() if v is not None}


def find(db: HerbalDb, text: str, limit: int) -> list[Any]:
    """Exact name matches (scientific, then genus + species, then common), then word-prefix matches."""
    rows = list(db.all(_EXACT, (fold(text), limit))) if not text.isdigit() else []
    query = fts_query(text)
    # Words of the scientific name first, shortest name first (the species before its varieties);
    # then words anywhere, by relevance (bm25 counts the whole row, common names included).
    for match, by_length in ((f"scientific : ({query})", True), (query, False)):
        if query is None or len(rows) >= limit:
            break
        seen = {r["herb_id"] for r in rows}
        more = db.all(_WORDS, (match, by_length, limit + len(seen)))
        rows += [r for r in more if r["herb_id"] not in seen][: limit - len(rows)]
    return rows


def resolve(db: HerbalDb, text: str) -> tuple[Any, list[Any]]:
    """The herb `text` names (a herb_id, or the best name match) and up to five others it also fits.

    With an exact name match the others are herbs of the same name (common names are shared);
    without one, the next-best word matches.
    """
    if text.isdigit():
        row = db.one("SELECT * FROM herb WHERE herb_id = ?", (int(text),))
        if row is None:
            raise ToolError(f"no herb with herb_id {text}; herbal_search finds ids by name", ErrorCode.NOT_FOUND)
        return row, []
    exact = db.all(_EXACT, (fold(text), 6))
    rows = exact or find(db, text, 6)  # another herb of the very same name is worth saying; a near one is not
    if not rows:
        raise ToolError(
            f"no herb named {text!r} in Dr. Duke's database; try herbal_search with part of the name",
            ErrorCode.NOT_FOUND,
        )
    return rows[0], rows[1:]


def search(args: SearchInput, ctx: ServiceContext) -> dict[str, Any]:
    db = get_db()
    rows = find(db, args.name, args.limit)
    if not rows:
        raise ToolError(f"no herb matches {args.name!r} (scientific or common name)", ErrorCode.NOT_FOUND)
    results = [summary(r) for r in rows]
    return {"query": args.name, "count": len(results), "results": results, **db.envelope("FNFTAX", "COMMON_NAMES")}


def get(args: HerbInput, ctx: ServiceContext) -> dict[str, Any]:
    db = get_db()
    row, others = resolve(db, args.herb)
    herb = summary(row) | {k: row[k] for k in ("genus", "species") if row[k]}
    parts = [
        {"part": r["name"] or r["part_code"] or "unspecified", "part_code": r["part_code"], "constituents": r["n"]}
        for r in db.all(
            "SELECT hp.part_code, p.name, hp.constituents AS n FROM herb_part hp LEFT JOIN part p"
            " ON p.code = hp.part_code WHERE hp.herb_id = ? ORDER BY hp.constituents DESC, p.name",
            (row["herb_id"],),
        )
    ]
    out: dict[str, Any] = {
        "herb": herb,
        "parts": [{k: v for k, v in p.items() if v is not None} for p in parts],
        "uses": _uses(db, row["herb_id"]),
    }
    if others:
        out["also_matched"] = [summary(r) for r in others]
    unavailable = []
    if db.link_table is None:
        unavailable.append({"table": "FARMACY_NEW", "fields": ["parts"]})
    if not db.has("ETHNOBOT"):
        unavailable.append({"table": "ETHNOBOT", "fields": ["uses"]})
    if unavailable:
        out["unavailable"] = unavailable
    return out | db.envelope("FNFTAX", "COMMON_NAMES", row["link_table"], "ETHNOBOT")


def _uses(db: HerbalDb, herb_id: int) -> list[dict[str, Any]]:
    rows = db.all(
        "SELECT use, countries, reports, references_ FROM herb_use WHERE herb_id = ? ORDER BY rank LIMIT ?",
        (herb_id, USES_SHOWN),
    )
    return [
        {"use": r["use"], "countries": json.loads(r["countries"]), "reports": r["reports"],
         "references": json.loads(r["references_"])}
        for r in rows
    ]  # fmt: skip
