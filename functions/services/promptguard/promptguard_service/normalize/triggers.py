"""The English words an attack is written in, which misspellings, leetspeak and accents hide."""

from __future__ import annotations

TRIGGER_WORDS = (
    "ignore", "disregard", "forget", "previous", "instructions", "instruction", "directives", "prompt", "system",
    "override", "bypass", "reveal", "password", "secret", "restrictions", "guidelines", "jailbreak", "unrestricted",
    "unfiltered", "uncensored", "developer", "pretend", "everything", "assistant", "respond", "output",
    "confidential",
)  # fmt: skip
TRIGGER_SET = frozenset(TRIGGER_WORDS)

_NON_LETTERS_TO_SPACES = bytes.maketrans(bytes(b for b in range(256) if not 97 <= b <= 122), b" " * (256 - 26))


def letter_runs(text: str) -> set[str]:
    """The runs of letters a-z in `text`, as `[a-z]+` finds them, each once: every other character, read as
    one byte (non-ASCII as "?"), is a space. A fifth of a pattern's scan, and prose repeats its words."""
    return set(text.encode("ascii", "replace").translate(_NON_LETTERS_TO_SPACES).decode("ascii").split())
