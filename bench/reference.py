"""Where the reference material is: the `shared/` folder beside the repository (not the repo's own shared/).

A clone has it at `../shared` (CI copies it there); a git worktree sits deeper (e.g. `wt/NAME` beside
the main checkout), so the folders above the repository are searched too, nearest first.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def reference_path(*parts: str) -> Path:
    """`shared/<parts>` in the nearest folder above the repository that has it, else the one beside it.

    The fallback does not exist: a caller opening it fails with the path it expected in the message.
    """
    for base in ROOT.parents:
        candidate = base.joinpath("shared", *parts)
        if candidate.exists():
            return candidate
    return ROOT.parent.joinpath("shared", *parts)
