"""The one registry of tools.

Each service declares its tools in `mcp_platform.contracts.<service>` as a
module-level `TOOLS: list[ToolSpec]`. The router lists, validates and prices
calls from these specs without invoking anything; the service Lambda looks up
the same spec to run its implementation. Adding a service means adding one
contracts module: discovery is by package scan, there is no list to edit.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, ValidationError

from mcp_platform import contracts
from mcp_platform.protocol.errors import ErrorCode, ToolError
from mcp_platform.protocol.schema import input_schema

if TYPE_CHECKING:
    from mcp_platform.durable_tasks.model import TaskSupport

_TOOL_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,128}$")
NESTED_TOO_DEEPLY = "nested too deeply (at most about 250 levels)"
"""Arguments past pydantic's nesting limit (~255 levels, to validate a JSON value or to serialise `Any`)."""


class ToolInput(BaseModel):
    """Base of every tool's input model: unknown arguments are refused, and validators build lazily.

    `defer_build` leaves each model's validator and schema unbuilt until first
    use, so a cold router pays only for the tools it actually serves (the
    first `tools/list` builds them all).

    Examples:
        >>> class PingInput(ToolInput):
        ...     name: str | None = Field(default=None, max_length=200)
    """

    model_config = ConfigDict(extra="forbid", defer_build=True)


Price = int | Callable[[Any], int]
"""Credits per call: a constant, or a function of the validated input model."""


@dataclass(frozen=True)
class Annotations:
    """MCP tool annotations (hints for clients; never trusted for security)."""

    read_only: bool = True
    destructive: bool = False
    idempotent: bool = True
    open_world: bool = False

    def to_wire(self) -> dict[str, bool]:
        return {
            "readOnlyHint": self.read_only,
            "destructiveHint": self.destructive,
            "idempotentHint": self.idempotent,
            "openWorldHint": self.open_world,
        }


@dataclass(frozen=True)
class ToolSpec:
    """Everything the platform knows about one tool, without its implementation.

    Examples:
        >>> ToolSpec(
        ...     name="hello_ping", service="hello", title="Ping",
        ...     description="Say hello.", input_model=PingInput,
        ...     output_schema={"type": "object", "required": ["message"]},
        ... )
    """

    name: str
    service: str
    title: str
    description: str
    input_model: type[BaseModel]
    output_schema: dict[str, Any]
    annotations: Annotations = field(default_factory=Annotations)
    price: Price = 0
    needs_balance: bool = False
    """The router reads the caller's balance and passes it (`ServiceContext.balance`); costs one read."""
    free_without_providers: bool = False
    """Without a search provider and an LLM configured the tool answers recorded samples, free: the router
    then prices it 0 and reserves nothing (research; `mcp_platform.outbound.provider_status`)."""
    preview: bool = False
    """Listed and callable only when the deployment enables preview tools (`ENABLE_PREVIEW_TOOLS=1`)."""
    price_note: str = ""
    """How a price that depends on the arguments is set, for the docs (e.g. "25 quick, 60 standard")."""
    task_support: TaskSupport = "forbidden"
    """Whether the tool may run as a durable task (`execution.taskSupport`): optional runs it either way,
    required only as a task. Task runs are not bound by the synchronous service timeout."""

    def __post_init__(self) -> None:
        if not _TOOL_NAME.match(self.name):
            raise ValueError(f"tool name {self.name!r} is not [A-Za-z0-9_.-]{{1,128}}")
        if self.output_schema.get("type") != "object":
            raise ValueError(f"{self.name}: outputSchema must have type object")
        if self.input_model.model_config.get("extra") != "forbid":
            raise ValueError(f"{self.name}: input model must set extra='forbid' (subclass ToolInput)")

    @cached_property
    def input_schema(self) -> dict[str, Any]:
        return input_schema(self.input_model)

    @cached_property
    def published_output_schema(self) -> dict[str, Any]:
        """`output_schema`, plus the billing fields when a closed schema would reject them.

        The router adds `credits_charged`/`credits_balance` to billed results (seed 000);
        open schemas (most seeds) admit them as they are and are published verbatim.
        """
        schema = self.output_schema
        if not self.billed or schema.get("additionalProperties", True) is not False:
            return schema
        properties = {
            **schema.get("properties", {}),
            "credits_charged": {"type": "integer", "minimum": 0},
            "credits_balance": {"type": "integer", "minimum": 0},
        }
        return {**schema, "properties": properties}

    @property
    def price_label(self) -> str:
        if callable(self.price) or self.free_without_providers:
            return self.price_note or "varies"
        return "free" if self.price == 0 else f"{self.price}"

    @property
    def billed(self) -> bool:
        """True when the tool may cost credits (a price function counts as billed)."""
        return callable(self.price) or self.price > 0

    def price_for(self, arguments: BaseModel, *, providers_configured: bool) -> int:
        """The call's price; `providers_configured`: the deployment has a search provider and an LLM."""
        if self.free_without_providers and not providers_configured:
            return 0
        return self.price(arguments) if callable(self.price) else self.price

    def validate(self, arguments: dict[str, Any] | None) -> BaseModel:
        """Validate raw arguments; raise `ToolError(invalid_arguments)` naming each bad field."""
        try:
            return self.input_model.model_validate(arguments or {})
        except ValidationError as exc:
            raise ToolError(
                f"invalid arguments for {self.name}: {describe_validation_error(exc)}",
                ErrorCode.INVALID_ARGUMENTS,
            ) from None

    def to_wire(self) -> dict[str, Any]:
        """The tool as `tools/list` publishes it."""
        wire = {
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "inputSchema": self.input_schema,
            "outputSchema": self.published_output_schema,
            "annotations": {"title": self.title, **self.annotations.to_wire()},
        }
        if self.task_support != "forbidden":
            wire["execution"] = {"taskSupport": self.task_support}
        return wire


def describe_validation_error(exc: ValidationError) -> str:
    """One line per problem, `field.path: message`, for a model to act on."""
    parts = []
    for err in exc.errors(include_url=False, include_context=False, include_input=False):
        if err["type"] == "recursion_loop":  # JSON has no cycles: a value past pydantic's ~255 levels of nesting
            parts.append(f"{err['loc'][0]}: {NESTED_TOO_DEEPLY}")
        else:
            parts.append(f"{'.'.join(str(p) for p in err['loc']) or 'arguments'}: {err['msg']}")
    return "; ".join(parts)


class Registry:
    """All tools of all services, in a deterministic order (service, then declaration)."""

    def __init__(self, specs: list[ToolSpec], descriptions: dict[str, str] | None = None) -> None:
        self.descriptions = descriptions or {}
        """Service name → what the service is for (its contracts module's docstring)."""
        self._by_name: dict[str, ToolSpec] = {}
        for spec in specs:
            if spec.name in self._by_name:
                raise ValueError(f"duplicate tool name {spec.name!r}")
            self._by_name[spec.name] = spec
        order = {spec.name: i for i, spec in enumerate(specs)}
        self._ordered = sorted(specs, key=lambda s: (s.service, order[s.name]))

    def __iter__(self) -> Iterator[ToolSpec]:
        return iter(self._ordered)

    def __len__(self) -> int:
        return len(self._ordered)

    def get(self, name: str) -> ToolSpec | None:
        return self._by_name.get(name)

    @property
    def services(self) -> list[str]:
        return sorted({spec.service for spec in self._ordered})

    def for_service(self, service: str) -> list[ToolSpec]:
        return [spec for spec in self._ordered if spec.service == service]


def load_registry(services: Iterable[str] | None = None) -> Registry:
    """Collect `TOOLS` from `mcp_platform.contracts.<service>` for each of `services`, or from every module.

    The router loads every contract (it lists and prices them all); a service
    Lambda loads only its own, so one broken contract breaks one service, and a
    service's cold start does not pay for the others' models.
    """
    if services is None:
        names = [info.name for info in pkgutil.iter_modules(contracts.__path__) if not info.name.startswith("_")]
    else:
        names = sorted(set(services))
    specs: list[ToolSpec] = []
    descriptions: dict[str, str] = {}
    for name in names:
        module = importlib.import_module(f"{contracts.__name__}.{name}")
        tools: list[ToolSpec] = module.TOOLS
        if strays := sorted({spec.service for spec in tools} - {name}):
            raise ValueError(f"contracts/{name}.py declares tools of other services {strays}: one module per service")
        specs.extend(tools)
        descriptions[name] = (module.__doc__ or name).strip()
    return Registry(specs, descriptions)
