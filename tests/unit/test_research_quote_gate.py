"""The quote gate keeps verbatim quotes from their own source and nothing else."""

from __future__ import annotations

from research_service.quote_gate import DraftClaim, gate, normalise

NASA = "https://science.nasa.gov/mission/webb/"
WIKI = "https://en.wikipedia.org/wiki/James_Webb_Space_Telescope"
TEXTS = {
    NASA: "Webb launched on Dec. 25, 2021, on an Ariane 5 rocket from Europe\u2019s Spaceport in\nFrench Guiana.",
    WIKI: "NASA led Webb's design and development and partnered with two main agencies.",
}


def _one(quote: str, url: str = NASA) -> tuple[list[DraftClaim], list[str]]:
    result = gate([DraftClaim("a claim", quote, url)], TEXTS)
    return result.kept, result.gaps()


def test_normalise_folds_quote_marks_and_whitespace_only() -> None:
    assert normalise("\u201cWebb\u201d\u00a0 launched\u200b \n on Europe\u2019s") == '"Webb" launched on Europe\'s'
    assert normalise("Launched") != normalise("launched")


def test_exact_quote_is_kept() -> None:
    kept, gaps = _one("Webb launched on Dec. 25, 2021, on an Ariane 5 rocket")
    assert [c.quote for c in kept] == ["Webb launched on Dec. 25, 2021, on an Ariane 5 rocket"]
    assert gaps == []


def test_quote_equal_after_normalisation_is_kept() -> None:
    kept, _ = _one("rocket from  Europe's Spaceport in French\u00a0Guiana.")
    assert len(kept) == 1


def test_paraphrase_is_rejected_and_listed_in_gaps() -> None:
    kept, gaps = _one("Webb was launched on 25 December 2021 on an Ariane 5")
    assert kept == []
    assert gaps == [f"dropped claim (quote not found in {NASA}): a claim"]


def test_quote_from_another_source_is_rejected() -> None:
    kept, gaps = _one("NASA led Webb's design and development", url=NASA)
    assert kept == []
    assert "quote not found" in gaps[0]
    assert len(_one("NASA led Webb's design and development", url=WIKI)[0]) == 1


def test_unread_source_short_quote_and_duplicates_are_rejected() -> None:
    assert "which was not read" in _one("Webb launched on Dec. 25, 2021", url="https://other.example/")[1][0]
    assert "shorter than" in _one("Webb launched")[1][0]
    quote = "Webb launched on Dec. 25, 2021"
    result = gate([DraftClaim("one", quote, NASA), DraftClaim("two", quote, NASA)], TEXTS)
    assert [c.claim for c in result.kept] == ["one"]
    assert result.rejected[0][1] == "duplicate quote"
