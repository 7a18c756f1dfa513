"""Contract modules are declarations: what they import, and that a service Lambda loads only its own.

A contract module (`mcp_platform/contracts/<service>.py`) is loaded by the
router and by its own service's Lambda. It may import pydantic, the standard
library's declaration helpers and the platform's declaration modules; never a
client, a store, a function's code or anything that does I/O at import.
"""

from __future__ import annotations

import ast
import json
import pkgutil
import subprocess
import sys
import types
from pathlib import Path

import pytest

from mcp_platform import contracts
from mcp_platform.catalogue.registry import load_registry
from mcp_platform.runtime.service import ServiceApp
from tests.support.router import fake_spec

ROOT = Path(__file__).resolve().parents[2]
CONTRACTS = Path(contracts.__path__[0])
MODULES = sorted(p for p in CONTRACTS.glob("*.py") if p.name != "__init__.py")

ALLOWED = (
    "__future__",
    "typing",
    "collections.abc",
    "dataclasses",
    "datetime",
    "decimal",
    "enum",
    "functools",
    "json",
    "math",
    "pathlib",
    "re",
    "xml.etree",
    "email.headerregistry",
    "pydantic",
    "annotated_types",
    "mcp_platform.contracts",
    "mcp_platform.catalogue.registry",
    "mcp_platform.protocol.schema",
    "mcp_platform.protocol.errors",
    "mcp_platform.protocol.binary",
    "mcp_platform.web.addresses",
    # Environment reads only, imported inside research's price function: research is free without a provider.
    "mcp_platform.outbound.provider_status",
)
"""What a contract may import (a module or its submodules): declarations and pure validators."""

FORBIDDEN_AT_IMPORT = (
    "boto3",
    "botocore",
    "httpx",
    "aws_lambda_powertools",
    "mcp_platform.storage.aws",
    "mcp_platform.storage.staging_store",
    "mcp_platform.billing",
    "mcp_platform.auth",
    "mcp_platform.runtime.service",
    "mcp_platform.llm",
    "mcp_platform.search",
    "mcp_platform.storage.secrets",
    "mcp_platform.web.http",
)
"""What importing every contract module must not load (checked in a fresh interpreter)."""


def _imports(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names.append(node.module or "")
    return names


@pytest.mark.parametrize("path", MODULES, ids=[p.stem for p in MODULES])
def test_a_contract_module_imports_only_declarations(path: Path) -> None:
    bad = [n for n in _imports(path) if not any(n == a or n.startswith(f"{a}.") for a in ALLOWED)]
    assert not bad, f"{path.name} imports {bad}: contracts hold declarations only (see this test's ALLOWED)"


def _fresh(code: str) -> list[str]:
    """sys.modules after running `code` in a new interpreter with the common layer on the path."""
    script = f"import sys, json\nsys.path.insert(0, {str(ROOT / 'shared')!r})\n{code}\nprint(json.dumps(sorted(sys.modules)))"
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_importing_every_contract_loads_no_client_store_or_function_code() -> None:
    names = [info.name for info in pkgutil.iter_modules(contracts.__path__)]
    loaded = _fresh("\n".join(f"import mcp_platform.contracts.{n}" for n in names))
    heavy = [m for m in loaded if any(m == f or m.startswith(f"{f}.") for f in FORBIDDEN_AT_IMPORT)]
    assert not heavy, f"importing the contracts loaded {heavy}"
    assert not [m for m in loaded if m.endswith("_service")], "a contract imported a function's code"


def test_a_service_lambda_loads_only_its_own_contracts() -> None:
    code = "sys.path.insert(0, 'functions/services/hello')\nimport hello_service.app"
    loaded = {m for m in _fresh(code) if m.startswith("mcp_platform.contracts.")}
    assert loaded == {"mcp_platform.contracts.hello"}


def test_the_router_registry_loads_every_service() -> None:
    assert load_registry(["hello"]).services == ["hello"]
    assert set(load_registry().services) >= {"hello", "geo", "validate"}
    assert load_registry(["qr", "hello"]).services == ["hello", "qr"]


def test_a_contract_module_declares_only_its_own_services_tools(monkeypatch: pytest.MonkeyPatch) -> None:
    stray = types.ModuleType("mcp_platform.contracts.zz_stray")
    stray.TOOLS = [fake_spec("zz_tool", service="other")]  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, stray.__name__, stray)
    with pytest.raises(ValueError, match="other services"):
        load_registry(["zz_stray"])


def test_service_app_checks_its_implementations_against_its_own_contracts() -> None:
    with pytest.raises(ValueError, match="no implementation"):
        ServiceApp("hello", {})
