"""geo_resolve, geo_get, geo_text_search, geo_semantic_search."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from geo_service import lookup
from geo_service.entities import COLUMNS, to_entity
from geo_service.similar import vector_index
from geo_service.store import GeoDb, get_db
from geo_service.text import fold
from mcp_platform.protocol.errors import ErrorCode, ToolError

if TYPE_CHECKING:
    from mcp_platform.contracts.geo import GetInput, ResolveInput, SearchInput
    from mcp_platform.runtime.service import ServiceContext


def resolve(args: ResolveInput, _ctx: ServiceContext) -> dict[str, Any]:
    filters = lookup.Filters(args.entity_type, args.country_code, args.place_kind)
    rows = lookup.resolve(get_db(), args.query, filters, args.limit)
    if not rows:
        raise ToolError(f"query: nothing matches {args.query!r}{_filter_text(filters)}", ErrorCode.NOT_FOUND)
    return {"query": args.query, "count": len(rows), "results": [to_entity(r) for r in rows]}


def get(args: GetInput, _ctx: ServiceContext) -> dict[str, Any]:
    return {"entity": to_entity(lookup.by_id(get_db(), args.geoname_id), full=True)}


def text_search(args: SearchInput, _ctx: ServiceContext) -> dict[str, Any]:
    results = _text_hits(get_db(), args.query, args.entity_type, args.limit)
    return {"count": len(results), "results": results}


def semantic_search(args: SearchInput, _ctx: ServiceContext) -> dict[str, Any]:
    db = get_db()
    anchors = lookup.resolve(db, args.query, lookup.Filters(args.entity_type), 1)
    index = vector_index(db)
    hits = index.neighbours(anchors[0]["geoname_id"], args.entity_type, args.limit) if anchors and index else None
    if hits is None:
        results = _text_hits(db, args.query, args.entity_type, args.limit)
        note = "no stored vectors in this database" if index is None else "no anchor with a stored vector"
        out: dict[str, Any] = {"mode": "text_fallback", "note": f"{note}; fuzzy text search instead"}
        if anchors:
            out["anchor"] = to_entity(anchors[0])
        return {**out, "count": len(results), "results": results}
    distance = dict(hits)
    rows = db.all(
        f"SELECT {COLUMNS} FROM entity e WHERE e.geoname_id IN ({','.join('?' * len(hits))})",
        [gid for gid, _ in hits],
    )
    results = sorted((to_entity(r, distance=distance[r["geoname_id"]]) for r in rows), key=lambda e: e["distance"])
    return {"mode": "vector_neighbours", "anchor": to_entity(anchors[0]), "count": len(results), "results": results}


def _text_hits(db: GeoDb, query: str, entity_type: str | None, limit: int) -> list[dict[str, Any]]:
    filters = lookup.Filters(entity_type)
    candidates = lookup.words_match(db, query, filters)
    scored = lookup.ranked_by_similarity(fold(query), candidates, limit, floor=0.5)
    if len(scored) < limit:
        seen = {row["geoname_id"] for row, _ in scored}
        extra = [(r, s) for r, s in lookup.fuzzy(db, query, filters, limit) if r["geoname_id"] not in seen]
        scored = sorted([*scored, *extra], key=lambda item: (-item[1], -(item[0]["population"] or 0)))[:limit]
    if not scored:
        raise ToolError(f"query: no name is spelled like {query!r}{_filter_text(filters)}", ErrorCode.NOT_FOUND)
    return [to_entity(row, similarity=score) for row, score in scored]


def _filter_text(filters: lookup.Filters) -> str:
    parts = [f"{k}={v}" for k, v in vars(filters).items() if v is not None]
    return f" (with {', '.join(parts)})" if parts else ""
