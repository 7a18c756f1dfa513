"""promptguard rules behind an opening-character lookahead: the same matches as the bare pattern, faster."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from promptguard_service import rules
from promptguard_service.openings import lookahead, with_opening

TRICKY = [
    r"\b(?:ignore|forget)\s+all\b",
    r"(?:(?:please|now)\s+){0,2}(?<![\w-])send\b",
    r"(?:^|(?<=\n))[\s'\"*>-]*(?:send|post)",
    r"(?>ab|a)c|x{2,3}",
    r"[a-c][^d]|(?=q)qq",
    r"(?:an? )?important (?:note|message)",
]
ALPHABET = "abcdfinpqstox '\"*->\n\t\u00a0\u3000.:"
VOCABULARY = [
    "ignore", "all", "previous", "instructions", "you", "are", "now", "i am", "your", "developer", "before", "the",
    "task", "send", "the user's", "inbox", "to", "x@evil.example", "system", "prompt", "reveal", "as an ai", "please",
    "important", "message", "from", "note to", "assistant:", "user:", "dan", "mode", "<information>", "http://a.b/",
]  # fmt: skip
"""Words the rules are written around, so that random texts hit them."""


def spans(pattern: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [match.span() for match in pattern.finditer(text)]


def bare(rule: rules.Rule) -> re.Pattern[str]:
    """The rule's pattern as written, without the lookahead `with_opening` put in front."""
    found = re.fullmatch(r"\(\?=\[.*?\]\)\(\?:(.*)\)", rule.pattern.pattern, re.DOTALL)
    return re.compile(found.group(1)) if found else rule.pattern


def test_a_word_alternation_gets_its_opening_letters() -> None:
    assert with_opening(r"\b(?:ignore|forget) all").pattern == r"(?=[fi])(?:\b(?:ignore|forget) all)"


@pytest.mark.parametrize(
    "rx",
    [r"(?:abc)?", r"\w+ignore", r"(?i)\bignore", r"[^a]bc", r"\b", r"(?:a|)b?", r"[\x00-\uffff]x"],
    ids=["may be empty", "opens with \\w", "ignores case", "negated set", "zero width", "empty branch", "wide range"],
)
def test_no_lookahead_where_the_opening_cannot_be_listed(rx: str) -> None:
    assert with_opening(rx).pattern == rx


def test_most_rules_get_a_lookahead() -> None:
    """The costly rules open with `\\b` alternations; losing the lookahead doubles the rules' time."""
    behind = [rule.name for rule in (*rules.RULES, *rules.EXTRA_STRONG) if bare(rule) is not rule.pattern]
    assert len(behind) >= 0.8 * len(rules.RULES + rules.EXTRA_STRONG)
    assert {"authority_claim", "agent_hijack", "safety_off", "persona_template"} <= set(behind)


def test_lookahead_alone_is_empty_where_the_opening_cannot_be_listed() -> None:
    assert lookahead(r"\bsend|post") == "(?=[ps])"
    assert lookahead(r"(?:send)?") == ""


INNER = r"(?:^|(?<=[.\n]))(?=[^.\n]*?{ahead}(?:ignore|forget))(?![^.\n]*?{ahead_own}(?:\bmy\b|\bhow))[^.\n]*?(?:ignore|forget)"
"""A sentence-level question as `secret_request` asks it: alternations tried at each character of a lazy loop."""


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([*VOCABULARY, "my", "how", "forget", "."]), max_size=30))
def test_a_lookahead_inside_a_lazy_loop_keeps_the_matches(words: list[str]) -> None:
    text = " ".join(words)
    inside = INNER.format(ahead=lookahead("ignore|forget"), ahead_own=lookahead(r"\bmy\b|\bhow"))
    assert "(?=[" in inside
    assert spans(re.compile(inside), text) == spans(re.compile(INNER.format(ahead="", ahead_own="")), text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=60))
def test_tricky_patterns_match_as_written(text: str) -> None:
    for rx in TRICKY:
        assert spans(with_opening(rx), text) == spans(re.compile(rx), text)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(VOCABULARY), max_size=30), st.lists(st.sampled_from([" ", "\n", ": ", ". "])))
def test_every_rule_matches_as_written(words: list[str], separators: list[str]) -> None:
    text = "".join(word + (separators[i % len(separators)] if separators else " ") for i, word in enumerate(words))
    for rule in (*rules.RULES, *rules.EXTRA_STRONG):
        assert spans(rule.pattern, text) == spans(bare(rule), text), rule.name
