"""The quote gate: a claim survives only if its quote is verbatim in its own source's text.

"Verbatim" forgives what extraction and typography change without changing
words: runs of whitespace (including non-breaking and zero-width spaces) and
the spelling of quote marks and apostrophes. Anything else — a paraphrase, a
changed word, a quote found only in another source — is rejected.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

MIN_QUOTE_CHARS = 20
"""Shorter quotes ("the", "in 2021") would match almost any page and prove nothing."""
MAX_QUOTE_CHARS = 600

_QUOTE_MARKS = str.maketrans(
    {
        **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\u02bc\u0060\u00b4", "'"),
        **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb", '"'),
    }
)
_INVISIBLE = re.compile("[\u200b\u200c\u200d\u2060\ufeff\u00ad]")
_SPACES = re.compile(r"\s+")


def normalise(text: str) -> str:
    """Text as the gate compares it: NFKC, one spelling per quote mark, single spaces, trimmed.

    Examples:
        >>> normalise("“Launched”\\u00a0on  25 December")
        '"Launched" on 25 December'
    """
    text = unicodedata.normalize("NFKC", text).translate(_QUOTE_MARKS)
    return _SPACES.sub(" ", _INVISIBLE.sub("", text)).strip()


@dataclass(frozen=True)
class DraftClaim:
    """A claim as the LLM drafted it, before the gate."""

    claim: str
    quote: str
    source_url: str
    stance: str = "supports"
    """supports | contradicts: what the quote does to the claim (source_lookup)."""


@dataclass(frozen=True)
class GateResult:
    kept: list[DraftClaim]
    rejected: list[tuple[DraftClaim, str]]
    """Each dropped claim with the reason, for the envelope's gaps."""

    def gaps(self) -> list[str]:
        return [f"dropped claim ({reason}): {_clip(draft.claim)}" for draft, reason in self.rejected]


def gate(drafts: list[DraftClaim], texts: dict[str, str]) -> GateResult:
    """Keep each draft whose quote occurs in the fetched text of its own `source_url`.

    `texts` maps every fetched URL to its extracted text; a draft citing a URL
    that was not fetched is rejected like a misquote.
    """
    normalised = {url: normalise(text) for url, text in texts.items()}
    kept: list[DraftClaim] = []
    rejected: list[tuple[DraftClaim, str]] = []
    seen: set[tuple[str, str]] = set()
    for draft in drafts:
        reason = _rejection(draft, normalised)
        key = (draft.source_url, normalise(draft.quote))
        if reason is None and key in seen:
            reason = "duplicate quote"
        if reason is None:
            seen.add(key)
            kept.append(draft)
        else:
            rejected.append((draft, reason))
    return GateResult(kept, rejected)


def _rejection(draft: DraftClaim, texts: dict[str, str]) -> str | None:
    quote = normalise(draft.quote)
    if len(quote) < MIN_QUOTE_CHARS:
        return f"quote shorter than {MIN_QUOTE_CHARS} characters"
    if len(quote) > MAX_QUOTE_CHARS:
        return f"quote longer than {MAX_QUOTE_CHARS} characters"
    text = texts.get(draft.source_url)
    if text is None:
        return f"cites {draft.source_url}, which was not read"
    if quote not in text:
        return f"quote not found in {draft.source_url}"
    return None


def _clip(text: str, limit: int = 160) -> str:
    text = normalise(text)
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"
