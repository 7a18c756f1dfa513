"""JSON Schemas that agents read: pydantic's output, trimmed for the wire.

Pydantic emits a `title` on every model and field and spells an optional
argument as `anyOf: [T, null]` with `default: null`. Neither helps a model fill
in arguments, and both cost tokens in every `tools/list`. `input_schema()`
removes them; everything else (descriptions, defaults, bounds, enums,
`additionalProperties: false`) is kept as pydantic wrote it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import BaseModel

# Keywords whose value is a map from *names* to schemas: their keys are data,
# never keywords, so a property called "title" must survive the trimming.
_NAME_MAPS = frozenset({"properties", "$defs", "patternProperties", "dependentSchemas"})


def input_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The published `inputSchema` of a tool's pydantic input model.

    Examples:
        >>> class Args(BaseModel):
        ...     model_config = ConfigDict(extra="forbid")
        ...     name: str | None = None
        >>> input_schema(Args)
        {'additionalProperties': False, 'properties': {'name': {'type': 'string'}}, 'type': 'object'}
    """
    schema: dict[str, Any] = _trim(model.model_json_schema(mode="validation"))
    return schema


def output_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The published `outputSchema` of a pydantic output model (serialization view)."""
    schema: dict[str, Any] = _trim(model.model_json_schema(mode="serialization"))
    return schema


def _trim(node: Any) -> Any:
    if isinstance(node, list):
        return [_trim(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = _drop_optional_null(node)
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "title":
            continue
        if key in _NAME_MAPS and isinstance(value, dict):
            out[key] = {name: _trim(sub) for name, sub in value.items()}
        else:
            out[key] = _trim(value)
    return out


def _drop_optional_null(node: dict[str, Any]) -> dict[str, Any]:
    """`{anyOf: [X, {type: null}], default: null}` → X: an omitted argument is simply absent."""
    any_of = node.get("anyOf")
    if not (isinstance(any_of, list) and "default" in node and node["default"] is None):
        return node
    branches = [b for b in any_of if b != {"type": "null"}]
    if len(branches) != len(any_of) - 1:
        return node
    rest = {k: v for k, v in node.items() if k not in ("anyOf", "default")}
    if len(branches) == 1:
        return {**branches[0], **rest}
    return {"anyOf": branches, **rest}
