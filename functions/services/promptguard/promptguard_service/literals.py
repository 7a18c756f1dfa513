"""The literals every match of a regular expression holds, read from its parse, so a rule can be skipped.

Rules were first gated by hand-written word lists of which one must occur; on ordinary prose a word
like "your", "owner" or "before" let most rules through, and trying them was most of the time a check
took (15 rules tried on a 2,000-character news page, 3.3 ms). The parse says much more:
`\\bas your (?:developer|creator),? (?:i|we)\\b` cannot match a text without "as your " and one of
"developer", "creator". `required` reads that as a formula (all of / any of, over literals) and
`LiteralIndex` finds which of every rule's literals a text holds in one Aho-Corasick pass, so that the
formula of each rule is a few set lookups (0.3 ms for all of them on that page). The formula is a
necessary condition by construction: where it fails, the pattern cannot match, so skipping the rule
changes no hit. It is now a rule's only gate: the hand-written lists held back matches of their own patterns
("#(admin_message)" for `role_marker`, "nc\t-e" for `remote_code`; issue 35).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from re import _constants as sre  # the parser's opcodes, as `openings` reads them
from re import _parser
from typing import TYPE_CHECKING, Any

import ahocorasick

from promptguard_service.openings import group_body

if TYPE_CHECKING:
    from collections.abc import Iterable


@dataclass(frozen=True)
class AllOf:
    """Every word of `words` and every formula of `parts` (the words tested at once, as a subset)."""

    words: frozenset[str]
    parts: tuple[AllOf | AnyOf, ...] = ()


@dataclass(frozen=True)
class AnyOf:
    """A word of `words` or a formula of `parts`."""

    words: frozenset[str]
    parts: tuple[AllOf | AnyOf, ...] = ()


Formula = AllOf | AnyOf | str | None
"""A literal the text must hold, all or any of several formulas, or None (nothing is certain)."""
_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)


def _kept(run: str) -> str | None:
    """A literal worth looking for: three characters, two outside ASCII ("忽略", "我是"), or a run with a
    punctuation mark (":" of a dialogue turn, "-e" of a shell flag): prose holds few of those, and without
    them three rules had no gate at all."""
    punctuated = any(not ch.isalnum() and not ch.isspace() for ch in run)
    return run if len(run) >= 3 or (len(run) >= 2 and not run.isascii()) or punctuated else None


def _combine(kind: type[AllOf | AnyOf], parts: Iterable[Formula]) -> Formula:
    words: set[str] = set()
    nested: list[AllOf | AnyOf] = []
    for part in parts:
        if part is None:
            if kind is AnyOf:
                return None  # one branch with nothing known: the alternation promises nothing
            continue
        if isinstance(part, str):
            words.add(part)
        elif isinstance(part, kind):  # all of (all of …) is all of …
            words |= part.words
            nested += [p for p in part.parts if p not in nested]
        elif part not in nested:
            nested.append(part)
    if not nested:
        return None if not words else next(iter(words)) if len(words) == 1 else kind(frozenset(words))
    if not words and len(nested) == 1:
        return nested[0]
    return kind(frozenset(words), tuple(nested))


def _sequence(items: list[tuple[Any, Any]]) -> Formula:
    parts: list[Formula] = []
    run = ""
    for op, av in items:
        if op is sre.LITERAL:
            run += chr(av)
            continue
        parts += [_kept(run), _item(op, av)]
        run = ""
    parts.append(_kept(run))
    return _combine(AllOf, parts)


def _item(op: Any, av: Any) -> Formula:
    if (body := group_body(op, av)) is not None:
        return _sequence(body)
    if op is sre.BRANCH:
        return _combine(AnyOf, (_sequence(branch.data) for branch in av[1]))
    if op in _REPEATS:
        low, _high, body = av
        return _sequence(body.data) if low >= 1 else None
    if op is sre.ASSERT:  # what a lookahead or lookbehind reads is in the text too
        _direction, body = av
        return _sequence(body.data)
    return None  # a set, a class, a negative lookaround, a backreference: nothing certain


def required(pattern: re.Pattern[str]) -> Formula:
    """The literals every match of `pattern` holds, as a formula; None when nothing is certain."""
    if pattern.flags & re.IGNORECASE:
        return None
    return _sequence(_parser.parse(pattern.pattern, pattern.flags).data)


Test = Callable[[frozenset[str]], bool]
"""Whether a text whose literals are the given set (`LiteralIndex.present`) can satisfy a formula."""


def _always(found: frozenset[str]) -> bool:
    return True


def predicate(formula: Formula) -> Test:
    """`formula` as a test, built once: each rule tries it on every text (a recursive walk of the formula
    took twice as long, 0.2 ms per 2,000 characters for all rules)."""
    if formula is None:
        return _always
    if isinstance(formula, str):
        return lambda found: formula in found
    words = formula.words
    parts = tuple(predicate(part) for part in formula.parts)
    if isinstance(formula, AllOf):

        def all_of(found: frozenset[str]) -> bool:
            return words <= found and all(part(found) for part in parts)

        return all_of

    def any_of(found: frozenset[str]) -> bool:
        return not words.isdisjoint(found) or any(part(found) for part in parts)

    return any_of


def literals(formula: Formula) -> set[str]:
    if formula is None:
        return set()
    if isinstance(formula, str):
        return {formula}
    return set(formula.words).union(*(literals(part) for part in formula.parts))


class LiteralIndex:
    """Which of a fixed set of literals a text holds, found in one pass (an Aho-Corasick automaton)."""

    def __init__(self, words: Iterable[str]) -> None:
        self._automaton = ahocorasick.Automaton()
        for word in set(words):
            self._automaton.add_word(word, word)
        self._automaton.make_automaton()

    def present(self, text: str) -> frozenset[str]:
        return frozenset(word for _end, word in self._automaton.iter(text))
