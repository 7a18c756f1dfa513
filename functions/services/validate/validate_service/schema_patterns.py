"""A caller's schema regexes (`pattern`, `patternProperties`, the `regex` format), run by `regex` within a budget.

jsonschema runs them with Python's `re`, which backtracks without bound: `^(a|a)+$` on forty a's and a '!'
would hold the function until its timeout. The `regex` package reads `re`'s syntax with the same meaning (its
default VERSION0) and takes a timeout. jsonschema has no hook for the engine: `pattern` and
`patternProperties` could be replaced as keywords, but `additionalProperties` and `unevaluatedProperties`
search the `patternProperties` themselves. So `guard_jsonschema` gives the jsonschema modules that call
`re.search` this module's `search` as their `re` (they use nothing else of it; a test holds them to that),
and `regex_format` makes the `regex` format, which decides whether a schema's patterns are valid, compile
with the engine that runs them.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from types import SimpleNamespace
from typing import TYPE_CHECKING

import regex
from jsonschema import FormatChecker, _keywords, _legacy_keywords, _utils

from mcp_platform.contracts.validate import PATTERN_CALL_MS, PATTERN_SEARCH_MS

if TYPE_CHECKING:
    from collections.abc import Iterator

SEARCHING_MODULES = (_keywords, _legacy_keywords, _utils)
"""The jsonschema modules whose keywords search a schema's patterns (with `re.search`)."""


class PatternTimeout(Exception):
    """A search ran out of its time (`PATTERN_SEARCH_MS`) or of the call's (`PATTERN_CALL_MS`)."""

    def __init__(self, pattern: str, text: str) -> None:
        super().__init__(pattern)
        self.pattern = pattern
        self.text = text


class InvalidPattern(Exception):
    """A pattern `regex` cannot compile, met where the schema's own check does not look (draft 4's
    `patternProperties` names have no `format: regex` in its metaschema)."""

    def __init__(self, pattern: str, error: regex.error) -> None:
        super().__init__(f"{pattern!r} is not a 'regex' ({error})")
        self.pattern = pattern


@dataclass
class _Budget:
    seconds_left: float


_budget: ContextVar[_Budget | None] = ContextVar("pattern_budget", default=None)


@contextmanager
def call_budget() -> Iterator[None]:
    """The searches inside share `PATTERN_CALL_MS` between them (outside one, each search has its own limit only)."""
    token = _budget.set(_Budget(PATTERN_CALL_MS / 1000))
    try:
        yield
    finally:
        _budget.reset(token)


def search(pattern: str, text: str) -> regex.Match[str] | None:
    """`re.search(pattern, text)` as `regex` runs it, stopped at the search's or the call's time limit."""
    budget = _budget.get()
    limit = PATTERN_SEARCH_MS / 1000 if budget is None else min(PATTERN_SEARCH_MS / 1000, budget.seconds_left)
    if limit <= 0:
        raise PatternTimeout(pattern, text)
    compiled = _compile(pattern)
    started = time.monotonic()
    try:
        return compiled.search(text, timeout=limit)
    except TimeoutError:
        raise PatternTimeout(pattern, text) from None
    finally:
        if budget is not None:
            budget.seconds_left -= time.monotonic() - started


def _compile(pattern: str) -> regex.Pattern[str]:
    try:
        return _compiled(pattern)
    except regex.error as exc:
        raise InvalidPattern(pattern, exc) from None


@lru_cache(maxsize=512)
def _compiled(pattern: str) -> regex.Pattern[str]:
    """A cache of our own: `regex.search` on a string pattern looks it up at 14 µs a call, this at under 1."""
    return regex.compile(pattern)


def compiles(instance: object) -> bool:
    """The `regex` format: a string `regex` compiles (raises `regex.error` otherwise); other types pass."""
    if isinstance(instance, str):
        _compiled(instance)
    return True


def regex_format(base: FormatChecker) -> FormatChecker:
    """`base` with its `regex` format checked by the engine that runs the patterns."""
    checker = FormatChecker(())
    checker.checkers.update(base.checkers)
    checker.checks("regex", raises=regex.error)(compiles)
    return checker


def guard_jsonschema() -> None:
    """Make jsonschema's keywords search patterns with `search` (once per process; idempotent)."""
    for module in SEARCHING_MODULES:
        module.re = SimpleNamespace(search=search)  # type: ignore[attr-defined]
