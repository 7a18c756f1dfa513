"""JSON text from outside (a caller, a backend, a web page), parsed with the refusal its readers already handle."""

from __future__ import annotations

import json
from typing import Any


class JsonTooDeep(ValueError):
    """JSON text nested deeper than the parser goes (valid JSON; RFC 8259 lets a parser limit the depth)."""


def loads(text: str | bytes) -> Any:
    """`json.loads`, raising `JsonTooDeep` (a ValueError, like any bad JSON) on text nested too deeply.

    The parser recurses once per `[` or `{` and stops at the interpreter's C recursion limit (10,000 levels in
    3.13) with a RecursionError, which is no ValueError: a reader that catches ValueError for bad JSON would
    crash on "[[[…".
    """
    try:
        return json.loads(text)
    except RecursionError:
        raise JsonTooDeep("JSON nested too deeply to parse (about 10,000 levels)") from None
