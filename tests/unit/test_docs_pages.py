"""The README and docs/*.md name only what exists: paths, modules, make targets, mcp-admin commands, links.

Issue 39, item 7: the README opens with what the platform is, the two commands and connecting a
client, and the depth lives in docs/ pages it links. Prose is written by hand, so whatever a page
names in code spans is checked here against the tree; the README's tool catalogue stays generated
(test_readme_catalog.py).
"""

from __future__ import annotations

import importlib
import re
import sys
from functools import cache
from pathlib import Path

import pytest

from mcp_admin.cli import parser

ROOT = Path(__file__).resolve().parents[2]
PAGES = ["architecture", "billing", "tasks", "self-hosting", "deploy", "operations"]
"""The pages the README's "More" list links (others may add theirs beside them)."""
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
TOP = ("functions/", "shared/", "localdev/", "scripts/", "tests/", "bench/", "docs/", "layers/", "events/", ".ci/")
FILES = ("Makefile", "template.yaml", "samconfig.toml", "pyproject.toml", "requirements-dev.txt")

SPAN = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"\]\(([^)\s]+)\)")
MODULE = re.compile(r"^(?:mcp_platform|mcp_router|localdev|[a-z]+_(?:service|events))(?:\.[A-Za-z_][A-Za-z0-9_]*)+$")
MAKE = re.compile(r"^make ([a-z][a-z0-9-]*)")
ADMIN = re.compile(r"mcp-admin (?:--local |--stack \S+ |--profile \S+ )*([a-z][a-z-]*)")


def _ids(paths: list[Path]) -> list[str]:
    return [str(p.relative_to(ROOT)) for p in paths]


@cache
def _make_targets() -> frozenset[str]:
    text = (ROOT / "Makefile").read_text()
    return frozenset(re.findall(r"^([a-z][a-z0-9-]*):", text, re.MULTILINE))


@cache
def _admin_commands() -> frozenset[str]:
    subparsers = next(a for a in parser()._actions if a.dest == "command")
    return frozenset(subparsers.choices)  # type: ignore[arg-type]


def _module_exists(dotted: str) -> bool:
    """Some prefix imports as a module and the rest are its attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for name in parts[cut:]:
                found = getattr(found, name)
        except AttributeError:
            return False
        return True
    return False


@pytest.fixture(scope="module", autouse=True)
def _function_paths() -> None:
    """Service packages import as the template wires them: each function's folder on the path."""
    for folder in sorted((ROOT / "functions").glob("*/*")):
        if str(folder) not in sys.path:
            sys.path.append(str(folder))


def test_the_readme_links_every_docs_page_and_opens_with_the_first_steps() -> None:
    readme = (ROOT / "README.md").read_text()
    for page in PAGES:
        assert (ROOT / "docs" / f"{page}.md").is_file(), page
        assert f"](docs/{page}.md)" in readme, page
    opening = readme[: readme.index("\n## ", readme.index("## Connecting"))]
    for needed in ("make dev", "make test", "PORT", "Authorization: Bearer", "minutes"):
        assert needed in opening, needed
    assert len(readme.splitlines()) < 400, "depth goes to docs/"


@pytest.mark.parametrize("document", DOCUMENTS, ids=_ids(DOCUMENTS))
def test_what_a_page_names_exists(document: Path) -> None:
    text = document.read_text()
    missing: list[str] = []
    for link in LINK.findall(text):
        if not link.startswith(("http://", "https://", "#", "mailto:")):
            target = (document.parent / link.split("#")[0]).resolve()
            if not target.exists():
                missing.append(f"link {link}")
    for span in SPAN.findall(text):
        token = span.strip()
        if token.startswith(TOP) or token in FILES:
            path = token.split(" ")[0].split(":")[0].rstrip("/,.")
            if not any(c in path for c in "*<>…{") and not (ROOT / path).exists():
                missing.append(f"path {path}")
        elif MODULE.match(token) and not _module_exists(token):
            missing.append(f"module {token}")
        if (make := MAKE.match(token)) and make.group(1) not in _make_targets():
            missing.append(f"make target {make.group(1)}")
        for command in ADMIN.findall(token):
            if command not in _admin_commands():
                missing.append(f"mcp-admin {command}")
    assert not missing, f"{document.name} names what does not exist: {missing}"
