"""DSLD and ODS answers → plain data. Pure functions; no I/O.

DSLD labels (`/dsld/v9/label/{id}`): quantities whose `unit` is "NP" (not provided, inside
proprietary blends) carry no amount; `operator` may be "<"; a %DV may be null with a footnote;
rows nest (`nestedRows`). Search (`/dsld/v9/search-filter`) answers Elasticsearch-style
`{"hits": [{"_id", "_source": {...}}], "stats": {"count"}}`. ODS fact sheets come as XML
(`<Factsheet>` with the sheet's HTML in `<Content>`).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from typing import Any

LABEL_SITE = "https://dsld.od.nih.gov/label/"
_NOT_PROVIDED = "NP"
_SPACES = re.compile(r"\s+")


# ---------------------------------------------------------------- DSLD


def search_hits(data: Any) -> tuple[list[dict[str, Any]], int | None]:
    """Hits of a search-filter answer (`hits[]` or `hits.hits[]`) as label summaries, and the total."""
    hits = (data or {}).get("hits") or []
    if isinstance(hits, dict):  # the Elasticsearch envelope, if DSLD ever passes it through
        hits = hits.get("hits") or []
    out = []
    for hit in hits:
        source = hit.get("_source") or hit
        raw_id = hit.get("_id") or source.get("id")
        product = source.get("fullName") or source.get("productName")
        if raw_id is None or not str(raw_id).isdigit() or not product:
            continue
        item: dict[str, Any] = {"dsld_id": int(raw_id), "product": str(product)}
        if source.get("brandName"):
            item["brand"] = str(source["brandName"])
        if form := _described(source.get("physicalState")):
            item["form"] = form
        if source.get("offMarket") is not None:
            item["on_market"] = not _flag(source["offMarket"])
        if source.get("entryDate"):
            item["entry_date"] = str(source["entryDate"])
        out.append(item)
    stats = (data or {}).get("stats") or {}
    total = stats.get("count")
    return out, int(total) if isinstance(total, int | str) and str(total).isdigit() else None


def label(data: dict[str, Any]) -> dict[str, Any]:
    """A DSLD label → our fields (see `SupplementLabelOutput`)."""
    other = data.get("otheringredients") or {}
    out: dict[str, Any] = {
        "dsld_id": int(data["id"]),
        "product": str(data.get("fullName") or ""),
        "brand": data.get("brandName") or None,
        "upc": data.get("upcSku") or None,
        "on_market": not _flag(data.get("offMarket")),
        "entry_date": data.get("entryDate") or None,
        "form": _described(data.get("physicalState")),
        "product_type": _described(data.get("productType")),
        "serving_sizes": [_serving(s) for s in data.get("servingSizes") or []],
        "servings_per_container": str(data["servingsPerContainer"]) if data.get("servingsPerContainer") else None,
        "net_contents": [
            str(n.get("display") or "").strip() for n in data.get("netContents") or [] if n.get("display")
        ],
        "ingredients": [_ingredient(row) for row in data.get("ingredientRows") or []],
        "other_ingredients": [str(i["name"]) for i in other.get("ingredients") or [] if i.get("name")],
        "other_ingredients_text": other.get("text") or None,
        "statements": [
            {"type": str(s.get("type") or ""), "text": str(s["notes"]).strip()}
            for s in data.get("statements") or []
            if s.get("notes")
        ],
        "target_groups": [str(g) for g in data.get("targetGroups") or []],
    }
    return {k: v for k, v in out.items() if v is not None}


def _ingredient(row: dict[str, Any]) -> dict[str, Any]:
    item: dict[str, Any] = {"name": str(row.get("name") or "")}
    for field, key in (("category", "category"), ("ingredient_group", "ingredientGroup"), ("notes", "notes")):
        if row.get(key):
            item[field] = str(row[key])
    quantities = row.get("quantity") or []
    item["amounts"] = [_amount(q) for q in (quantities if isinstance(quantities, list) else [quantities])]
    item["forms"] = [str(f.get("name")) for f in row.get("forms") or [] if f.get("name")]
    item["nested"] = [_ingredient(nested) for nested in row.get("nestedRows") or []]
    return item


def _amount(quantity: dict[str, Any]) -> dict[str, Any]:
    unit = quantity.get("unit")
    out: dict[str, Any] = {}
    if unit and unit != _NOT_PROVIDED:
        out["unit"] = str(unit)
        if quantity.get("quantity") is not None:
            out["quantity"] = float(quantity["quantity"])
        if quantity.get("operator"):
            out["operator"] = str(quantity["operator"])
    size, size_unit = quantity.get("servingSizeQuantity"), quantity.get("servingSizeUnit")
    if size is not None and size_unit:
        out["per_serving"] = f"{_number(size)} {size_unit}"
    out["daily_values"] = [_daily_value(dv) for dv in quantity.get("dailyValueTargetGroup") or []]
    return out


def _daily_value(dv: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if dv.get("name"):
        out["group"] = str(dv["name"])
    if dv.get("percent") is not None:
        out["percent"] = float(dv["percent"])
    if dv.get("operator"):
        out["operator"] = str(dv["operator"])
    if dv.get("footnote"):
        out["footnote"] = str(dv["footnote"])
    return out


def _serving(size: dict[str, Any]) -> str:
    """`2 Softgel(s)`, `1-2 Tablet(s)`; a missing bound is left out."""
    low, high = size.get("minQuantity"), size.get("maxQuantity")
    if low is None or high is None or low == high:
        amount = _number(low if low is not None else high)
    else:
        amount = f"{_number(low)}-{_number(high)}"
    return f"{amount} {size.get('unit') or ''}".strip()


def _flag(value: Any) -> bool:
    """DSLD's 0/1 flags, also as strings or booleans."""
    return str(value).strip().lower() in ("1", "true", "yes")


def _described(value: Any) -> str | None:
    if isinstance(value, dict):
        value = value.get("langualCodeDescription")
    return str(value).strip() or None if value else None


def _number(value: Any) -> str:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return "" if value is None else str(value)
    return str(int(number)) if number.is_integer() else f"{number:g}"


# ---------------------------------------------------------------- ODS fact sheets


def resource_name(name: str) -> str:
    """`vitamin D` → `VitaminD`, `omega-3 fatty acids` → `Omega3FattyAcids` (the ODS resource naming)."""
    return "".join(word[:1].upper() + word[1:] for word in re.findall(r"[A-Za-z0-9]+", name))


def fact_sheet(xml: bytes) -> dict[str, Any] | None:
    """`<Factsheet>` → {title, summary, rda, ul, last_reviewed, url}; None when there is no sheet in it."""
    try:
        root = ET.fromstring(xml)
    except ET.ParseError:
        return None
    sheet = root if root.tag == "Factsheet" else root.find(".//Factsheet")
    if sheet is None:
        return None
    content = sheet.findtext("Content") or ""
    title = (sheet.findtext("Title") or sheet.findtext("ShortTitle") or "").strip()
    if not content.strip() or not title:
        return None
    html = _Html()
    html.feed(content)
    out: dict[str, Any] = {"title": title, "summary": html.summary()}
    for key, words in (("rda", ("recommended dietary allowance", "adequate intake")), ("ul", ("upper intake",))):
        if table := html.table_about(words):
            out[key] = table
    for field, tag in (("last_reviewed", "LastReviewed"), ("url", "URL")):
        if value := (sheet.findtext(tag) or "").strip():
            out[field] = value
    return out


class _Html(HTMLParser):
    """Paragraph texts and tables (with the caption or the heading just before them) of a fact sheet."""

    _BLOCKS = frozenset({"p", "h1", "h2", "h3", "h4", "li"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.paragraphs: list[str] = []
        self.tables: list[dict[str, Any]] = []
        self._heading = ""
        self._text: list[str] | None = None
        self._tag = ""
        self._table: dict[str, Any] | None = None
        self._row: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self._table = {"caption": self._heading, "rows": []}
        elif tag == "tr" and self._table is not None:
            self._row = []
        elif tag in ("td", "th", "caption") or (tag in self._BLOCKS and self._table is None):
            self._text, self._tag = [], tag

    def handle_endtag(self, tag: str) -> None:
        if tag == "table" and self._table is not None:
            self.tables.append(self._table)
            self._table = None
        elif tag == "tr" and self._table is not None and self._row is not None:
            if any(self._row):
                self._table["rows"].append(self._row)
            self._row = None
        elif self._text is not None and tag == self._tag:
            text = _SPACES.sub(" ", "".join(self._text)).strip()
            self._text = None
            if tag == "caption" and self._table is not None:
                self._table["caption"] = text
            elif tag in ("td", "th") and self._row is not None:
                self._row.append(text)
            elif tag.startswith("h"):
                self._heading = text
            elif tag == "p" and text:
                self.paragraphs.append(text)
                if text.startswith("Table"):
                    self._heading = text

    def handle_data(self, data: str) -> None:
        if self._text is not None:
            self._text.append(data)

    def summary(self, limit: int = 1500) -> str:
        out: list[str] = []
        for paragraph in self.paragraphs:
            if sum(len(p) for p in out) + len(paragraph) > limit and out:
                break
            out.append(paragraph)
        return "\n\n".join(out)[: limit + 200]

    def table_about(self, words: tuple[str, ...]) -> dict[str, Any] | None:
        for table in self.tables:
            if any(w in table["caption"].lower() for w in words) and table["rows"]:
                header, *rows = table["rows"]
                return {"caption": table["caption"], "columns": header, "rows": rows}
        return None
