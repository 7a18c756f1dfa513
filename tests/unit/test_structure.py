"""The house's structure holds: no import cycles, no imports upward between layers.

The import graph is read from the source (`ast`), nothing is imported. Every
import counts: at module level, inside a function (kept lazy for cold starts)
and under `TYPE_CHECKING` (a type-only cycle is still two modules that cannot
be read, moved or tested apart). Importing `a.b` runs `a/__init__.py` too; that
implicit edge is not counted, or every package re-exporting a submodule would
be a cycle.

Layers, bottom up: the contracts (tool declarations) over the protocol core; the
common layer (`shared/mcp_platform`); the functions (router, platform functions,
tool services), which the template lists and `localdev.template` reads.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

from localdev.template import PLATFORM_FUNCTIONS, functions

ROOT = Path(__file__).resolve().parents[2]
LAYER = "mcp_platform"

PROTOCOL_CORE = frozenset(
    {
        "mcp_platform.catalogue.registry",
        "mcp_platform.protocol.schema",
        "mcp_platform.protocol.errors",
        "mcp_platform.protocol.binary",
    }
)
"""What a contract may import from the layer besides other contracts: declarations, no I/O."""

CONTRACT_EXCEPTIONS = {
    "mcp_platform.web.addresses": "validate's and fetch's URL checks are the SSRF rules the service applies",
}
"""Layer modules a contract imports beyond the protocol core, each with its reason."""


def _package_roots() -> dict[str, Path]:
    """Top-level package name → its folder: the common layer and every function's package."""
    roots = {LAYER: ROOT / "shared" / LAYER}
    for f in functions():
        package = f.handler.split(".", 1)[0]
        roots[package] = f.code_dir / package
    return roots


def _module_name(package: str, root: Path, path: Path) -> str:
    parts = [package, *path.relative_to(root).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def _graph() -> dict[str, frozenset[str]]:
    """Module → the modules of these packages it imports (a `from a import b` names `a.b` when that is a module)."""
    paths = {
        _module_name(package, root, path): path
        for package, root in _package_roots().items()
        for path in root.rglob("*.py")
    }
    graph = {}
    for module, path in paths.items():
        here = module if path.name == "__init__.py" else module.rpartition(".")[0]
        targets = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = here.rsplit(".", node.level - 1)[0] if node.level > 1 else here
                    base = f"{anchor}.{base}" if base else anchor
                targets |= {f"{base}.{alias.name}" if f"{base}.{alias.name}" in paths else base for alias in node.names}
        graph[module] = frozenset(_known(t, paths) for t in targets if _known(t, paths)) - {module}
    return graph


def _known(name: str, modules: dict[str, Path]) -> str:
    """The longest prefix of `name` that is a module of these packages, or '' (a third-party import)."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name


def _reachable(graph: dict[str, frozenset[str]], start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for target in graph[todo.pop()] - seen:
            seen.add(target)
            todo.append(target)
    return seen


def _cycles(graph: dict[str, frozenset[str]]) -> set[frozenset[str]]:
    """The strongly connected components of more than one module (a few hundred modules: a search from each)."""
    reach = {module: _reachable(graph, module) for module in graph}
    return {
        frozenset({module} | {other for other in reach[module] if module in reach[other]})
        for module in graph
        if module in reach[module]
    }


def _package(module: str) -> str:
    return module.split(".", 1)[0]


def _kind(package: str) -> str:
    """'layer', 'router', 'platform' (auth, reconcile, task events) or 'service'."""
    if package == LAYER:
        return "layer"
    service = next(f.service for f in functions() if f.handler.split(".", 1)[0] == package)
    if service == "router":
        return "router"
    return "platform" if service in PLATFORM_FUNCTIONS else "service"


def _edges() -> list[tuple[str, str]]:
    return [(source, target) for source, targets in _graph().items() for target in sorted(targets)]


def test_the_graph_sees_every_package() -> None:
    kinds = {_kind(_package(m)) for m in _graph()}
    assert kinds == {"layer", "router", "platform", "service"}
    assert "mcp_platform.catalogue.registry" in _graph()["mcp_platform.contracts.hello"]


def test_no_import_cycles() -> None:
    cycles = [sorted(c) for c in _cycles(_graph())]
    assert not cycles, f"import cycles: {cycles}"


def test_the_layer_imports_no_function() -> None:
    upward = [(s, t) for s, t in _edges() if _package(s) == LAYER and _package(t) != LAYER]
    assert not upward, f"the common layer imports a function's code: {upward}"


def test_a_function_imports_no_other_function() -> None:
    """Services never import each other or the router; the router and the platform functions import no service."""
    across = [(s, t) for s, t in _edges() if _package(t) not in {LAYER, _package(s)}]
    assert not across, f"a function imports another function's code: {across}"


def test_contracts_import_only_the_protocol_core() -> None:
    allowed = PROTOCOL_CORE | set(CONTRACT_EXCEPTIONS)
    bad = [
        (s, t)
        for s, t in _edges()
        if s.startswith(f"{LAYER}.contracts") and not t.startswith(f"{LAYER}.contracts") and t not in allowed
    ]
    assert not bad, f"a contract imports beyond the protocol core: {bad}"
