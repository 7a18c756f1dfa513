"""The router's modules import each other without cycles, type-only imports included.

A cycle hidden behind `if TYPE_CHECKING:` still means two modules cannot be read, or moved,
one without the other; the graph is read from the source (every `import`, wherever it stands),
so a deferred or type-only import counts as much as one at the top.
"""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import mcp_router

PACKAGE = Path(mcp_router.__path__[0])


def _imported(tree: ast.Module) -> set[str]:
    """Every `mcp_router` module the source names in an import statement (`from mcp_router import x` names x)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = {f"mcp_router.{path.stem}": path for path in PACKAGE.glob("*.py") if path.stem != "__init__"}
    return {
        name: _imported(ast.parse(path.read_text(encoding="utf-8"))) & set(modules) - {name}
        for name, path in modules.items()
    }


def test_the_graph_sees_type_only_imports() -> None:
    graph = import_graph()
    assert "mcp_router.dependencies" in graph["mcp_router.task_wiring"]  # imported only under TYPE_CHECKING
    assert "mcp_router.credits" in graph["mcp_router.methods"]  # `from mcp_router import credits`


def test_router_modules_import_each_other_without_cycles() -> None:
    try:
        TopologicalSorter(import_graph()).prepare()
    except CycleError as exc:
        raise AssertionError(f"import cycle among router modules: {' -> '.join(exc.args[1])}") from None
