"""Finding entities: by id, by code, by name (ranked), by words and by fuzzy spelling.

Name resolution order (SERVICES.md): 2 letters → country by ISO2; 3 letters → airport by IATA,
else country by ISO3; otherwise exact name, English name, ASCII name, then prefix and fuzzy
matches. Within a tier cities come before places before countries, and population breaks ties.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from geo_service.entities import COLUMNS, TYPE_ORDER_SQL
from geo_service.text import exact_key, fold, words
from mcp_platform.protocol.errors import ErrorCode, ToolError

if TYPE_CHECKING:
    from geo_service.store import GeoDb

_FUZZY_CANDIDATES = 100
_RARE_TRIGRAMS = 6
_WORD_CANDIDATES = 100
MIN_SIMILARITY = 0.5


@dataclass(frozen=True)
class Filters:
    entity_type: str | None = None
    country_code: str | None = None
    place_kind: str | None = None

    def sql(self) -> tuple[str, list[Any]]:
        """` AND ...` clauses over alias `e`, and their parameters."""
        clauses, params = [], []
        for column, value in (("entity_type", self.entity_type), ("country_code", self.country_code),
                              ("place_kind", self.place_kind)):  # fmt: skip
            if value is not None:
                clauses.append(f" AND e.{column} = ?")
                params.append(value)
        return "".join(clauses), params

    def admits(self, entity_type: str, place_kind: str | None = None) -> bool:
        return (self.entity_type in (None, entity_type)) and (self.place_kind in (None, place_kind))


def by_id(db: GeoDb, geoname_id: int, entity_type: str | None = None) -> Any:
    row = db.one(f"SELECT {COLUMNS} FROM entity e WHERE e.geoname_id = ?", (geoname_id,))
    if row is None:
        raise ToolError(f"geoname_id {geoname_id} is not in the geo database", ErrorCode.NOT_FOUND)
    if entity_type is not None and row["entity_type"] != entity_type:
        raise ToolError(
            f"geoname_id {geoname_id} is a {row['entity_type']} ({row['name']}), not a {entity_type}",
            ErrorCode.NOT_FOUND,
        )
    return row


def resolve(db: GeoDb, query: str, filters: Filters, limit: int) -> list[Any]:
    """Best matches for a name or code, best first (may be empty)."""
    if hits := _by_code(db, query.strip(), filters, limit):
        return hits
    where, params = filters.sql()
    keys = list(dict.fromkeys((exact_key(query), fold(query))))
    rows = db.all(
        f"SELECT {COLUMNS}, MIN(k.kind) AS tier FROM name_key k JOIN entity e ON e.geoname_id = k.geoname_id"
        f" WHERE k.key IN ({','.join('?' * len(keys))}){where} GROUP BY e.geoname_id"
        f" ORDER BY tier, {TYPE_ORDER_SQL}, e.population DESC LIMIT ?",
        [*keys, *params, limit],
    )
    if len(rows) < limit:
        rows = _extend(rows, _prefix(db, query, filters, limit), limit)
    if not rows:  # fuzzy only when no name matches exactly or by prefix
        rows = [r for r, _ in fuzzy(db, query, filters, limit)]
    return rows


def _by_code(db: GeoDb, code: str, filters: Filters, limit: int) -> list[Any]:
    if not code.isalpha() or len(code) not in (2, 3):
        return []
    code = code.upper()
    where, params = filters.sql()
    if len(code) == 3 and filters.admits("place", "airport"):
        airports = db.all(
            f"SELECT {COLUMNS} FROM entity e WHERE e.iata = ? AND e.entity_type = 'place'{where}"
            " ORDER BY e.place_kind = 'airport' DESC LIMIT ?",
            [code, *params, limit],
        )
        if airports:
            return airports
    if filters.admits("country"):
        column = "iso2" if len(code) == 2 else "iso3"
        return db.all(
            f"SELECT {COLUMNS} FROM entity e WHERE e.{column} = ? AND e.entity_type = 'country'{where}",
            [code, *params],
        )
    return []


def _prefix(db: GeoDb, query: str, filters: Filters, limit: int) -> list[Any]:
    """Entities with a name whose words start with the query's words (`buda` → Budapest)."""
    match = match_expression(query, prefix=True)
    if match is None:
        return []
    where, params = filters.sql()
    return db.all(
        f"SELECT {COLUMNS} FROM entity e WHERE e.geoname_id IN (SELECT rowid FROM name_fts WHERE name_fts MATCH ?)"
        f"{where} ORDER BY {TYPE_ORDER_SQL}, e.population DESC LIMIT ?",
        [match, *params, limit],
    )


def fuzzy(db: GeoDb, query: str, filters: Filters, limit: int) -> list[tuple[Any, float]]:
    """Entities whose name is spelled like the query (trigram candidates, re-ranked by similarity)."""
    folded = fold(query)
    grams = sorted({folded[i : i + 3] for i in range(len(folded) - 2)} - {""})
    # The rarest trigrams keep the candidate lists short; a typo spoils at most three of them.
    known = db.all(f"SELECT term FROM name_tri_vocab WHERE term IN ({','.join('?' * len(grams))}) ORDER BY doc",
                   grams) if grams else []  # fmt: skip
    rare = [row[0].replace('"', '""') for row in known[:_RARE_TRIGRAMS]]
    if not rare:
        return []
    where, params = filters.sql()
    candidates = db.all(
        f"SELECT {COLUMNS}, e.name_en FROM (SELECT rowid, rank FROM name_tri WHERE name_tri MATCH ?"
        f" ORDER BY rank LIMIT ?) t JOIN entity e ON e.geoname_id = t.rowid WHERE 1{where}",
        [" OR ".join(f'"{g}"' for g in rare), _FUZZY_CANDIDATES, *params],
    )
    return ranked_by_similarity(folded, candidates, limit)


def words_match(db: GeoDb, query: str, filters: Filters) -> list[Any]:
    """Entities having every word of the query among their names (largest first, bounded)."""
    match = match_expression(query, prefix=False)
    if match is None:
        return []
    where, params = filters.sql()
    return db.all(
        f"SELECT {COLUMNS}, e.name_en FROM entity e"
        f" WHERE e.geoname_id IN (SELECT rowid FROM name_fts WHERE name_fts MATCH ?){where}"
        " ORDER BY e.population DESC LIMIT ?",
        [match, *params, _WORD_CANDIDATES],
    )


def ranked_by_similarity(
    folded_query: str, rows: list[Any], limit: int, *, floor: float = 0.0
) -> list[tuple[Any, float]]:
    """(row, similarity 0-1) best first; `floor` lifts rows already known to contain every query word."""
    scored = []
    for row in rows:
        names = {fold(n) for n in (row["name"], row["ascii_name"], row["name_en"]) if n}
        ratio = max(difflib.SequenceMatcher(None, folded_query, n).ratio() for n in names)
        score = floor + (1.0 - floor) * ratio
        if score >= MIN_SIMILARITY:
            scored.append((row, round(score, 4)))
    scored.sort(key=lambda item: (-item[1], -(item[0]["population"] or 0)))
    return scored[:limit]


def match_expression(query: str, *, prefix: bool) -> str | None:
    """An FTS5 query of the query's words (quoted, so no FTS syntax leaks in); last word as prefix."""
    terms = [f'"{w}"' for w in words(query)]
    if not terms:
        return None
    if prefix:
        terms[-1] += "*"
    return " ".join(terms)


def _extend(rows: list[Any], more: list[Any], limit: int) -> list[Any]:
    seen = {r["geoname_id"] for r in rows}
    out = list(rows)
    for row in more:
        if len(out) >= limit:
            break
        if row["geoname_id"] not in seen:
            seen.add(row["geoname_id"])
            out.append(row)
    return out


def resolve_one(db: GeoDb, query: str, filters: Filters, what: str) -> Any:
    """The single best match, or a not_found error naming `what` (e.g. `from_query`)."""
    rows = resolve(db, query, filters, 1)
    if not rows:
        kind = f" {filters.entity_type}" if filters.entity_type else ""
        raise ToolError(f"{what}: no{kind} matches {query!r}; try geo_text_search for spellings", ErrorCode.NOT_FOUND)
    return rows[0]


def by_id_or_name(db: GeoDb, geoname_id: int | None, query: str | None, entity_type: str | None, what: str) -> Any:
    """The entity given by id (checked to be `entity_type`) or the best match of a name (`what` names the field)."""
    if geoname_id is not None:
        return by_id(db, geoname_id, entity_type)
    return resolve_one(db, query or "", Filters(entity_type), what)
