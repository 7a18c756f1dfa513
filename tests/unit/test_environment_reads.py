"""Each function reads its environment in one place: its settings modules.

Every module under `shared/` and `functions/` is parsed (`ast`, nothing is imported) and
any read of the process environment outside the allow-list fails: `os.environ`,
`os.getenv`, `from os import environ`/`getenv`. Values reach the code that needs them
from the function's settings model, as a constructor argument or a parameter.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = (ROOT / "shared", ROOT / "functions")
ENV_NAMES = frozenset({"environ", "getenv", "environb", "getenvb"})

ALLOWED = {
    "shared/mcp_platform/runtime/settings.py": "the shared settings models and `settings_of`",
}
"""Modules besides each function's own `settings.py` (`functions/**/settings.py`) that may read the environment,
each with its reason. Shared code gets its values from the function's settings, passed in."""


def _modules() -> list[Path]:
    return sorted(
        p for root in SOURCES for p in root.rglob("*.py") if not any(part.startswith(".") for part in p.parts)
    )


def _reads(tree: ast.AST) -> list[int]:
    """Line numbers where the module touches `os.environ`/`os.getenv` or imports them from `os`."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in ENV_NAMES and isinstance(node.value, ast.Name):
            if node.value.id == "os":
                lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.module == "os":
            if any(alias.name in ENV_NAMES for alias in node.names):
                lines.append(node.lineno)
    return lines


def _allowed(path: Path) -> bool:
    relative = path.relative_to(ROOT).as_posix()
    own_settings = path.name == "settings.py" and relative.startswith("functions/")
    return own_settings or relative in ALLOWED


def test_the_check_sees_an_environment_read() -> None:
    source = "import os\nfrom os import getenv\nX = os.environ.get('A')\n"
    assert _reads(ast.parse(source)) == [2, 3]


def test_only_settings_modules_read_the_environment() -> None:
    offenders = [
        f"{p.relative_to(ROOT).as_posix()}:{line}"
        for p in _modules()
        if not _allowed(p)
        for line in _reads(ast.parse(p.read_text(), filename=str(p)))
    ]
    assert not offenders, "read the environment outside a settings module:\n" + "\n".join(offenders)


def test_the_allow_lists_name_modules_that_read_the_environment() -> None:
    """A module that stops reading the environment leaves `ALLOWED`."""
    stale = [r for r in ALLOWED if not _reads(ast.parse((ROOT / r).read_text()))]
    assert not stale, f"no longer read the environment, drop them from ALLOWED: {stale}"
