"""The GBIF species API (v1): requests and parsers of its answers (match, usage, paged sub-resources).

Parsers take the decoded JSON and return the contract's models; they are tested against every
real GBIF recording of these operations (tests/fixtures/plant). Keys are numbers in v1.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcp_platform.backends import backend_client
from mcp_platform.contracts.plant import PlantMatch, Rank, Region, Synonym
from plant_service.settings import settings

if TYPE_CHECKING:
    from mcp_platform.backends.client import BackendResponse

PAGE = 100
"""Entries asked for per sub-resource (GBIF's page); more are reported as truncated."""
RANKS = ("kingdom", "phylum", "class", "order", "family", "genus", "species")
INTRODUCED = frozenset({"INTRODUCED", "NATURALISED", "INVASIVE", "MANAGED", "ASSISTED_COLONISATION"})


def record_url(key: int) -> str:
    return f"https://www.gbif.org/species/{key}"


def match(name: str, deadline: float | None) -> BackendResponse:
    params = {"name": name, "kingdom": "Plantae", "strict": "false", "verbose": "true"}
    return backend_client("gbif", settings()).get("/v1/species/match", params, deadline=deadline)


def usage(key: int, deadline: float | None) -> BackendResponse:
    return backend_client("gbif", settings()).get(
        f"/v1/species/{key}", what=f"taxon with usage key {key}", deadline=deadline
    )


def sub_resource(key: int, name: str, deadline: float | None) -> BackendResponse:
    """`/v1/species/{key}/{name}` (synonyms, vernacularNames, distributions), first page."""
    return backend_client("gbif", settings()).get(
        f"/v1/species/{key}/{name}", {"offset": 0, "limit": PAGE}, what=f"taxon with usage key {key}", deadline=deadline
    )


def parse_match(data: dict[str, Any]) -> tuple[list[PlantMatch], str | None]:
    """The best match and its alternatives (verbose answers), best first; NONE is no match plus GBIF's note."""
    if data.get("matchType") == "NONE" or "usageKey" not in data:
        return [], data.get("note") or "no match"
    found = [data, *data.get("alternatives", [])]
    matches = [_match(m) for m in found if "usageKey" in m and m.get("matchType") != "NONE"]
    return matches[:1] + sorted(matches[1:], key=lambda m: -(m.confidence or 0)), None


def _match(m: dict[str, Any]) -> PlantMatch:
    return PlantMatch(
        usage_key=m["usageKey"],
        scientific_name=m.get("scientificName") or m.get("canonicalName") or str(m["usageKey"]),
        canonical_name=m.get("canonicalName"),
        rank=m.get("rank"),
        status=m.get("status"),
        confidence=m.get("confidence"),
        match_type=m.get("matchType", "EXACT"),
        kingdom=m.get("kingdom"),
        family=m.get("family"),
        synonym=bool(m.get("synonym")),
        accepted_usage_key=m.get("acceptedUsageKey"),
    )


def parse_usage(data: dict[str, Any]) -> dict[str, Any]:
    """A usage's names, status and classification (the ranks above it, kingdom first)."""
    key = data["key"]
    classification = [
        Rank(rank=rank, name=data[rank], key=data.get(f"{rank}Key"))
        for rank in RANKS
        if data.get(rank) and data.get(f"{rank}Key") != key
    ]
    return {
        "key": key,
        "scientific_name": data.get("scientificName") or data.get("canonicalName") or str(key),
        "canonical_name": data.get("canonicalName") or None,
        "authorship": data.get("authorship") or None,
        "rank": data.get("rank"),
        "status": data.get("taxonomicStatus"),
        "accepted_key": data.get("acceptedKey"),
        "accepted": data.get("accepted"),
        "kingdom": data.get("kingdom"),
        "classification": classification,
    }


def page(data: dict[str, Any]) -> tuple[list[dict[str, Any]], bool]:
    """A paged list's results and whether more pages exist (empty answers have no `count`)."""
    return list(data.get("results") or []), data.get("endOfRecords") is False


def parse_synonyms(data: dict[str, Any]) -> list[Synonym]:
    results, _ = page(data)
    return [
        Synonym(key=s["key"], scientific_name=s.get("scientificName") or s.get("canonicalName", ""),
                status=s.get("taxonomicStatus"))
        for s in results
        if "key" in s
    ]  # fmt: skip


def parse_vernacular(data: dict[str, Any]) -> dict[str, list[str]]:
    """Names by language code ('und' when none), each once, in GBIF's order."""
    out: dict[str, list[str]] = {}
    for entry in page(data)[0]:
        name = (entry.get("vernacularName") or "").strip()
        names = out.setdefault(entry.get("language") or "und", [])
        if name and name not in names:
            names.append(name)
    return {lang: names for lang, names in out.items() if names}


def parse_distributions(data: dict[str, Any]) -> tuple[list[Region], list[Region], list[Region]]:
    """(native, introduced, other) from checklist distributions, by establishmentMeans, each region once."""
    native: list[Region] = []
    introduced: list[Region] = []
    other: list[Region] = []
    seen: set[tuple[str, str | None]] = set()
    for entry in page(data)[0]:
        name = entry.get("locality") or entry.get("locationId") or entry.get("country")
        means = entry.get("establishmentMeans")
        if not name or (name, means) in seen:
            continue
        seen.add((name, means))
        code = entry.get("locationId") if entry.get("locality") else None
        region = Region(name=name, code=code, establishment=means.lower() if means else None)
        (native if means == "NATIVE" else introduced if means in INTRODUCED else other).append(region)
    return native, introduced, other
