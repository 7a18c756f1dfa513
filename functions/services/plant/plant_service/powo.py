"""Kew's Plants of the World Online API (`/api/2`): the name → IPNI id link, and distributions.

Parsers are tested against every real POWO recording (tests/fixtures/plant). An empty search has
no `results` key at all; an unknown id was HTTP 404 `{"error": "Not Found"}` in 2021 and is 400
today: both mean "no POWO record".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcp_platform.backends import backend_client
from mcp_platform.contracts.plant import Region
from plant_service.settings import settings

if TYPE_CHECKING:
    from mcp_platform.backends.client import BackendResponse

KINGDOMS = frozenset({"Plantae", "Fungi"})
"""What POWO (and its sister, Kew's fungi checklist) covers."""
NO_RECORD = frozenset({400, 404})


def record_url(fq_id: str) -> str:
    return f"https://powo.science.kew.org/taxon/{fq_id}"


def search_accepted(genus: str, epithet: str | None, deadline: float | None) -> BackendResponse:
    params = {"genus": genus, "species": epithet, "f": "accepted_names", "perPage": 50}
    return backend_client("powo", settings()).get(
        "/api/2/search", {k: v for k, v in params.items() if v is not None}, deadline=deadline
    )


def taxon_distribution(fq_id: str, deadline: float | None) -> BackendResponse:
    """The taxon with its distribution; 400/404 come back as answers (no such record), not errors."""
    return backend_client("powo", settings()).get(
        f"/api/2/taxon/{fq_id}", {"fields": "distribution"}, accept=NO_RECORD, deadline=deadline
    )


def results(data: dict[str, Any]) -> list[dict[str, Any]]:
    return list(data.get("results") or [])


def link(data: dict[str, Any], name: str) -> str | None:
    """The fqId (urn:lsid:ipni.org:names:…) of the accepted POWO record named exactly `name`."""
    wanted = " ".join(name.lower().split())
    for result in results(data):
        if result.get("accepted") and " ".join(str(result.get("name", "")).lower().split()) == wanted:
            return result.get("fqId")
    return None


def parse_distribution(data: dict[str, Any]) -> tuple[list[Region], list[Region], list[Region]]:
    """(native, introduced, other): `natives` and `introduced`, then any other list POWO adds (extinct, doubtful)."""
    groups: dict[str, list[Region]] = {"natives": [], "introduced": [], "other": []}
    for kind, items in (data.get("distribution") or {}).items():
        bucket = groups.get(kind, groups["other"])
        for item in items or []:
            if item.get("name"):
                bucket.append(Region(name=item["name"], code=item.get("tdwgCode"),
                                     establishment=item.get("establishment") or kind))  # fmt: skip
    return groups["natives"], groups["introduced"], groups["other"]
