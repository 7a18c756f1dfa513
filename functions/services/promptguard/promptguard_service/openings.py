"""The characters a regular expression's match can open with, put in front of it as a lookahead.

A rule is an alternation whose branches open with `\\b` or a lookbehind (so do the hex, base32, binary
and Morse patterns of `normalize`), so `re` cannot skip ahead to a likely start as it does for a pattern
that opens with a literal: it tries every branch at every position. `(?=[...])` in front, listing the
characters a match can open with, fails at most positions at once (authority_claim on a 2,000-character
text: 1.1 ms -> 0.2 ms). The matches are the same: the lookahead only names what the first consumed
character already had to be.
"""

from __future__ import annotations

import re
from re import _constants as sre  # the parser's opcodes; `re._parser` is how the standard library reads a pattern
from re import _parser
from typing import Any

_MOST = 64
"""More opening characters than this and the lookahead no longer pays. A set is one bitmap test whatever
its size; what a larger set loses is selectivity, and a rule whose openings are mostly other scripts'
letters still skips most of an English text (override_i18n_more, 42: 0.29 -> 0.17 ms on 2,000 chars)."""
_SPACES = frozenset(chr(code) for code in range(0x3001) if chr(code).isspace())
"""What `\\s` matches in a str pattern: Unicode white space, none of it above U+3000."""
_ZERO_WIDTH = (sre.AT, sre.ASSERT, sre.ASSERT_NOT)
_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)

First = tuple[frozenset[str], bool] | None
"""The characters a match can open with and whether it can be empty; None when they cannot be listed."""


def _charset(items: list[tuple[Any, Any]]) -> frozenset[str] | None:
    found: set[str] = set()
    for op, av in items:
        if op is sre.LITERAL:
            found.add(chr(av))
        elif op is sre.RANGE and av[1] - av[0] <= _MOST:
            found.update(map(chr, range(av[0], av[1] + 1)))
        elif op is sre.CATEGORY and av is sre.CATEGORY_SPACE:
            found |= _SPACES
        else:  # a negated set, \w, \d, a wide range
            return None
    return frozenset(found)


def group_body(op: Any, av: Any) -> list[tuple[Any, Any]] | None:
    """The items inside a group node (capturing, non-capturing or atomic); None for any other node, and for
    a group that turns on case-insensitive matching (its letters match in either case: not listed)."""
    if op is sre.SUBPATTERN:
        _group, add_flags, _del_flags, body = av
        return None if add_flags & re.IGNORECASE else body.data
    return av.data if op is sre.ATOMIC_GROUP else None


def _item(op: Any, av: Any) -> First:
    if op is sre.LITERAL:
        return frozenset(chr(av)), False
    if op is sre.IN:
        chars = _charset(av)
        return None if chars is None else (chars, False)
    if (body := group_body(op, av)) is not None:
        return _sequence(body)
    if op is sre.BRANCH:
        found: frozenset[str] = frozenset()
        empty = False
        for branch in av[1]:
            first = _sequence(branch.data)
            if first is None:
                return None
            found, empty = found | first[0], empty or first[1]
        return found, empty
    if op in _REPEATS:
        low, _high, body = av
        first = _sequence(body.data)
        return None if first is None else (first[0], first[1] or low == 0)
    return None


def _sequence(items: list[tuple[Any, Any]]) -> First:
    found: frozenset[str] = frozenset()
    for op, av in items:
        if op in _ZERO_WIDTH:
            continue
        first = _item(op, av)
        if first is None:
            return None
        found |= first[0]
        if not first[1]:
            return found, False
    return found, True


def lookahead(rx: str) -> str:
    """`(?=[...])` listing the characters a match of `rx` can open with, or "" when they are too many to
    pay, cannot be listed or `rx` can match the empty string (an empty match opens with no character).

    Put in front of an alternation that a pattern tries at many positions, for example after a lazy
    `[^.]*?`, it spares trying each branch where none can open."""
    parsed = _parser.parse(rx)
    first = None if parsed.state.flags & re.IGNORECASE else _sequence(parsed.data)
    if first is None or first[1] or not first[0] or len(first[0]) > _MOST:
        return ""
    return f"(?=[{''.join(sorted(map(re.escape, first[0])))}])"


def behind_opening(rx: str) -> str:
    """`rx` behind its `lookahead` (as it is when there is none): a pattern, or a part of one such as an
    alternation of words in scripts without spaces, which no `\\b` can gate."""
    ahead = lookahead(rx)
    return f"{ahead}(?:{rx})" if ahead else rx


def with_opening(rx: str) -> re.Pattern[str]:
    """`rx` compiled behind its `lookahead`."""
    return re.compile(behind_opening(rx))
