"""The registry's static half, generated at build time so a cold router does not import every contract.

Importing the 22 contract modules (over a hundred pydantic models) and rendering their JSON Schemas
is most of a cold router's init. Everything `tools/list`, the docs resources and the prices need is
static, so `scripts/gen_catalogue.py` writes it to `catalogue.json` beside this module (committed,
shipped in the common layer by `sam build` as any other file of the package). The router loads it as
a `Registry` of `CataloguedTool`s: per-tool entries it can filter and list as usual; a tool's
contract module (its input model and price function) is imported on the tool's first call, and its
validator is built on the first validation (`ToolInput` defers it).

The artefact records a fingerprint of what it was generated from (the contracts package, this
module, the registry and schema code, pydantic's version). When that no longer matches (a contract edited without
regenerating), `load_catalogue` logs a warning and falls back to `load_registry()`, so a stale file is
slower, never wrong; `tests/unit/test_catalogue.py` fails until it is regenerated.
"""

from __future__ import annotations

import hashlib
import json
import logging
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson
from pydantic import VERSION as PYDANTIC_VERSION

from mcp_platform import contracts
from mcp_platform.catalogue.registry import Annotations, Price, Registry, ToolSpec, load_registry

if TYPE_CHECKING:
    from pydantic import BaseModel

ARTEFACT = Path(__file__).with_name("catalogue.json")
_PACKAGE = Path(__file__).parents[1]
_SOURCES = ("catalogue/artefact.py", "catalogue/registry.py", "protocol/schema.py")
_log = logging.getLogger(__name__)


def fingerprint() -> str:
    """A digest of everything the catalogue is generated from (cheap: reads ~30 small files)."""
    digest = hashlib.sha256(PYDANTIC_VERSION.encode())
    root = Path(contracts.__file__).parent
    files = [_PACKAGE / name for name in _SOURCES]
    files += sorted(p for p in root.rglob("*") if p.suffix in {".py", ".json"} and "__pycache__" not in p.parts)
    for path in files:
        digest.update(path.relative_to(_PACKAGE).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _entry(spec: ToolSpec) -> dict[str, Any]:
    return {
        "name": spec.name,
        "service": spec.service,
        "title": spec.title,
        "description": spec.description,
        "annotations": spec.annotations.to_wire(),
        "input_schema": spec.input_schema,
        "output_schema": spec.output_schema,
        "published_output_schema": spec.published_output_schema,
        "price": None if callable(spec.price) else spec.price,
        "price_note": spec.price_note,
        "needs_balance": spec.needs_balance,
        "free_without_providers": spec.free_without_providers,
        "preview": spec.preview,
        "task_support": spec.task_support,
    }


def generate(registry: Registry | None = None) -> str:
    """The artefact's text for `registry` (by default every contract), deterministic to the byte."""
    registry = registry or load_registry()
    document = {
        "fingerprint": fingerprint(),
        "descriptions": registry.descriptions,
        "tools": [_entry(spec) for spec in registry],
    }
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


_ANNOTATION_FIELDS = {
    "readOnlyHint": "read_only",
    "destructiveHint": "destructive",
    "idempotentHint": "idempotent",
    "openWorldHint": "open_world",
}


_PLAIN_FIELDS = (
    "name",
    "service",
    "title",
    "description",
    "output_schema",
    "price_note",
    "needs_balance",
    "free_without_providers",
    "preview",
    "task_support",
)
"""The `ToolSpec` fields the artefact holds as they are."""


class CataloguedTool(ToolSpec):
    """A `ToolSpec` read from the catalogue: its implementation half is imported on first use.

    The listing fields and both schemas come from the artefact; `input_model` and `price` (the part
    a call needs) come from the contract module, imported the first time a call validates or prices
    this tool. Everything else behaves as the `ToolSpec` the registry would have loaded, except
    `dataclasses.replace`, which would rebuild it from fields it does not hold: filter catalogued
    tools, do not copy them.
    """

    def __init__(self, entry: dict[str, Any]) -> None:  # the dataclass checks ran when the artefact was made
        set_field = object.__setattr__  # ToolSpec is frozen
        for name in _PLAIN_FIELDS:
            set_field(self, name, entry[name])
        annotations = {_ANNOTATION_FIELDS[key]: value for key, value in entry["annotations"].items()}
        set_field(self, "annotations", Annotations(**annotations))
        set_field(self, "_constant_price", entry["price"])
        # cached_property reads the instance dict first: the schemas are the published ones as generated
        self.__dict__["input_schema"] = entry["input_schema"]
        self.__dict__["published_output_schema"] = entry["published_output_schema"]

    @cached_property
    def _contract(self) -> ToolSpec:
        spec = load_registry([self.service]).get(self.name)
        if spec is None:
            raise LookupError(f"{self.name} is in the catalogue but not in contracts/{self.service}.py")
        return spec

    @property
    def input_model(self) -> type[BaseModel]:
        return self._contract.input_model

    @property
    def price(self) -> Price:
        constant: int | None = self.__dict__["_constant_price"]
        return self._contract.price if constant is None else constant

    @property
    def price_label(self) -> str:
        constant: int | None = self.__dict__["_constant_price"]
        if constant is None or self.free_without_providers:
            return self.price_note or "varies"
        return "free" if constant == 0 else f"{constant}"

    @property
    def billed(self) -> bool:
        constant: int | None = self.__dict__["_constant_price"]
        return constant is None or constant > 0

    def __repr__(self) -> str:
        return f"CataloguedTool(name={self.name!r}, service={self.service!r})"


def load_catalogue(path: Path = ARTEFACT) -> Registry:
    """The registry from the artefact at `path`; every contract imported instead if it is missing or stale."""
    try:
        document = orjson.loads(path.read_bytes())  # 0.6 MB: ~3 ms of the router's init, ~8 with json
    except FileNotFoundError:
        _log.warning("no tool catalogue at %s: importing every contract (run scripts/gen_catalogue.py)", path)
        return load_registry()
    if document["fingerprint"] != fingerprint():
        _log.warning("the tool catalogue %s is stale: importing every contract (run scripts/gen_catalogue.py)", path)
        return load_registry()
    return Registry([CataloguedTool(entry) for entry in document["tools"]], document["descriptions"])
