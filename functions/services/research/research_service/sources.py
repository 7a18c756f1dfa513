"""Who published a page, whether it is a primary source, and how far the evidence can be trusted.

Independence is judged by publisher (the registrable domain): two pages of
one site are one voice. A primary source is the originator of the fact — a
government, standards body, university or the organisation itself; news,
encyclopaedias, forums and aggregators repeat it and are secondary.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from collections.abc import Iterable

_SECOND_LEVEL = frozenset({"co", "com", "ac", "gov", "org", "net", "edu", "govt", "nic", "or", "ne", "go"})
_PRIMARY_SUFFIXES = (".gov", ".mil", ".edu", ".int", ".europa.eu", ".gov.uk", ".ac.uk", ".gc.ca", ".gov.au")
_SECONDARY_PUBLISHERS = frozenset(
    {
        "wikipedia.org",
        "wikimedia.org",
        "medium.com",
        "reddit.com",
        "quora.com",
        "substack.com",
        "stackexchange.com",
        "stackoverflow.com",
        "youtube.com",
        "facebook.com",
        "x.com",
        "twitter.com",
        "linkedin.com",
        "bbc.co.uk",
        "bbc.com",
        "cnn.com",
        "reuters.com",
        "apnews.com",
        "nytimes.com",
        "theguardian.com",
        "forbes.com",
        "investopedia.com",
        "britannica.com",
    }
)


def publisher(url: str) -> str:
    """The registrable domain of `url` (`www.nasa.gov` → `nasa.gov`, `news.bbc.co.uk` → `bbc.co.uk`).

    A heuristic without the public-suffix list: a two-letter country TLD under
    a common second level (co, gov, ac…) keeps three labels.
    """
    host = (urlsplit(url).hostname or "").lower().rstrip(".")
    labels = host.split(".")
    if len(labels) >= 3 and len(labels[-1]) == 2 and labels[-2] in _SECOND_LEVEL:
        return ".".join(labels[-3:])
    return ".".join(labels[-2:])


def source_type(url: str, suggested: str | None) -> str:
    """primary | secondary: known kinds of host decide; otherwise the LLM's reading of the page, else secondary."""
    host = (urlsplit(url).hostname or "").lower()
    if publisher(url) in _SECONDARY_PUBLISHERS:
        return "secondary"
    if host.endswith(_PRIMARY_SUFFIXES):
        return "primary"
    return "primary" if suggested == "primary" else "secondary"


def confidence(backing: Iterable[tuple[str, str]]) -> str:
    """Confidence from the (url, type) of the sources behind the surviving claims.

    high: three independent publishers with a primary among them, or two
    independent primaries; medium: two independent publishers, or one primary;
    low: one secondary publisher; unknown: nothing survived.
    """
    kinds: dict[str, set[str]] = {}
    for url, kind in backing:
        kinds.setdefault(publisher(url), set()).add(kind)
    independent = len(kinds)
    primaries = sum(1 for found in kinds.values() if "primary" in found)
    if independent == 0:
        return "unknown"
    if primaries >= 2 or (independent >= 3 and primaries >= 1):
        return "high"
    if independent >= 2 or primaries == 1:
        return "medium"
    return "low"
