"""herbal_constituents: the chemicals of a herb, by plant part, with amount ranges."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from herbal_service.herbs import resolve, summary
from herbal_service.store import get_db
from herbal_service.text import fold
from mcp_platform.protocol.errors import ErrorCode, ToolError

if TYPE_CHECKING:
    from herbal_service.store import HerbalDb
    from mcp_platform.contracts.herbal import ConstituentsInput
    from mcp_platform.runtime.service import ServiceContext

_ROWS = """
SELECT c.chem, ch.cas, c.part_code, p.name AS part, c.amount_low, c.amount_high, c.unit, c.trace, c.less_than,
       c.reference, r.citation
FROM constituent c
LEFT JOIN chemical ch ON ch.chem = c.chem
LEFT JOIN part p ON p.code = c.part_code
LEFT JOIN reference r ON r.reference = c.reference
WHERE c.herb_id = ?1 AND (?2 IS NULL OR c.part_code = ?2)
ORDER BY c.chem, c.part_code
LIMIT ?3
"""


def constituents(args: ConstituentsInput, ctx: ServiceContext) -> dict[str, Any]:
    db = get_db()
    db.require("herbal_constituents", "LINK")
    row, _ = resolve(db, args.herb)
    herb_id = row["herb_id"]
    parts = {r["part_code"]: r["name"] for r in db.all(
        "SELECT hp.part_code, p.name FROM herb_part hp LEFT JOIN part p ON p.code = hp.part_code"
        " WHERE hp.herb_id = ?", (herb_id,))}  # fmt: skip
    if not parts:
        raise ToolError(
            f"Dr. Duke's database records no constituents for {row['scientific_name']} (herb_id {herb_id})",
            ErrorCode.NOT_FOUND,
        )
    code = _part_code(db, args.part, row["scientific_name"], parts) if args.part else None
    total = db.one(
        "SELECT COUNT(*) FROM constituent WHERE herb_id = ?1 AND (?2 IS NULL OR part_code = ?2)", (herb_id, code)
    )[0]
    items = [_constituent(r) for r in db.all(_ROWS, (herb_id, code, args.limit))]
    out: dict[str, Any] = {"herb": summary(row), "count": total, "truncated": total > len(items), "constituents": items}
    if code:
        out["part"] = parts[code] or code
    return out | db.envelope(row["link_table"], "CHEMICALS", "PARTS", "REFERENCES")


def _part_code(db: HerbalDb, wanted: str, herb: str, parts: dict[str, str | None]) -> str:
    """The part code `wanted` names (a code or a name); refuses a part the herb has no data for."""
    key = fold(wanted)
    rows = db.all("SELECT code, name FROM part")
    known = next((r["code"] for r in rows if key in (fold(r["code"]), fold(r["name"]))), None)
    if known is not None and known in parts:
        return str(known)
    have = ", ".join(sorted(f"{name or code} ({code})" for code, name in parts.items() if code))
    if known is None:
        raise ToolError(f"part: {wanted!r} is not a plant part Dr. Duke's database knows; {herb} has: {have}",
                        ErrorCode.INVALID_ARGUMENTS)  # fmt: skip
    raise ToolError(f"no constituents of {herb} recorded in part {wanted!r}; parts with data: {have}",
                    ErrorCode.NOT_FOUND)  # fmt: skip


def _constituent(r: Any) -> dict[str, Any]:
    out = {
        "chemical": r["chem"],
        "cas": r["cas"],
        "part": r["part"] or r["part_code"],
        "part_code": r["part_code"],
        "amount_low": r["amount_low"],
        "amount_high": r["amount_high"],
        "unit": r["unit"],
        "trace": bool(r["trace"]),
        "less_than": bool(r["less_than"]),
        "reference": r["reference"],
        "citation": r["citation"],
    }
    return {k: v for k, v in out.items() if v is not None or k in ("amount_low", "amount_high")}
