"""The extractor's choice between trafilatura's balanced and precision modes, with readability as the judge."""

from __future__ import annotations

from typing import Any

import pytest
from lxml.html import fromstring

from mcp_platform.web import extraction

ARTICLE = " ".join(f"Sentence {i} of the article says something about topic {i}." for i in range(40))
BOILERPLATE = " ".join(f"Related story {i}: subscribe to our newsletter for offer {i}." for i in range(15))


def fake(monkeypatch: pytest.MonkeyPatch, *, balanced: str, precise: str, judge: str) -> list[str]:
    """Replace trafilatura's passes and readability; return the modes that ran, in order."""
    ran: list[str] = []

    def passes(_tree: Any, _url: Any, *, fast: bool = True, favor_precision: bool = False, **_: Any) -> str:
        ran.append("precision" if favor_precision else "balanced")
        return precise if favor_precision else balanced

    monkeypatch.setattr(extraction, "_trafilatura", passes)
    monkeypatch.setattr(extraction, "_readability", lambda _tree: fromstring(f"<div><p>{judge}</p></div>"))
    return ran


def test_balanced_is_kept_without_a_second_pass_when_readability_agrees(monkeypatch: pytest.MonkeyPatch) -> None:
    ran = fake(monkeypatch, balanced=ARTICLE, precise=ARTICLE[:500], judge=ARTICLE)
    assert extraction.main_content(fromstring("<p>x</p>"), None) == ARTICLE
    assert ran == ["balanced"]


def test_precision_is_used_where_readability_backs_it(monkeypatch: pytest.MonkeyPatch) -> None:
    ran = fake(monkeypatch, balanced=f"{ARTICLE}\n\n{BOILERPLATE}", precise=ARTICLE, judge=ARTICLE)
    assert extraction.main_content(fromstring("<p>x</p>"), None) == ARTICLE
    assert ran == ["balanced", "precision"]


def test_precision_that_cuts_what_readability_keeps_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    full = f"{ARTICLE}\n\n{BOILERPLATE}"
    fake(monkeypatch, balanced=full, precise=ARTICLE[:400], judge=ARTICLE)
    assert extraction.main_content(fromstring("<p>x</p>"), None) == full


def test_similarity_is_a_dice_coefficient_of_word_shingles() -> None:
    a = extraction._shingles("one two three four five")
    assert extraction._similarity(a, a) == 1.0
    assert extraction._similarity(a, extraction._shingles("six seven eight nine")) == 0.0
    assert extraction._similarity(a, extraction._shingles("**one** two three four")) == pytest.approx(2 / 3)
