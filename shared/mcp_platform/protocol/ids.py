"""Cheap unique ids for requests: a random per-process prefix and a counter.

uuid4 reads the OS random source on every call, which showed up as 6 % of the
router's time under load; ids only need to be unique, not unpredictable.
A process restored from a snapshot (Lambda SnapStart) must call `reseed`, or
every environment restored from it would issue the same ids.
"""

from __future__ import annotations

import itertools
import secrets

_PREFIX = secrets.token_hex(6)
_COUNTER = itertools.count(1)


def reseed() -> None:
    """A new prefix (and counter) for this process."""
    global _PREFIX, _COUNTER  # noqa: PLW0603 - the module's own per-process state
    _PREFIX = secrets.token_hex(6)
    _COUNTER = itertools.count(1)


def request_id() -> str:
    """Unique across processes (random prefix) and within one (counter); sortable per process."""
    return f"{_PREFIX}{next(_COUNTER):010x}"
