"""JSON documents against JSON Schema with `jsonschema` (draft 2020-12 unless `$schema` says otherwise)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from jsonschema import FormatChecker, validators
from jsonschema.exceptions import SchemaError, ValidationError
from referencing import Registry
from referencing.exceptions import Unresolvable

from mcp_platform.contracts.validate import PATTERN_CALL_MS, PATTERN_SEARCH_MS, JsonError, JsonInput, JsonOutput
from mcp_platform.protocol import json_text
from mcp_platform.protocol.errors import ErrorCode, ToolError
from mcp_platform.protocol.json_text import JsonTooDeep
from validate_service import schema_patterns
from validate_service.schema_patterns import InvalidPattern, PatternTimeout

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

    from mcp_platform.runtime.service import ServiceContext

MAX_ERRORS = 50
_TOO_DEEP = "each level takes jsonschema a few Python calls deeper, up to Python's limit: some hundred levels"
_DEFAULT = validators.validator_for({"$schema": "https://json-schema.org/draft/2020-12/schema"})
_FORMATS = schema_patterns.regex_format(FormatChecker())
"""Every format jsonschema knows (`regex` checked by the engine that runs the patterns), for `check_formats`."""
schema_patterns.guard_jsonschema()


def validate_json(arguments: JsonInput, _ctx: ServiceContext) -> JsonOutput:
    cls = validators.validator_for(arguments.json_schema, default=_DEFAULT)
    draft = cls.META_SCHEMA.get("$id", cls.__name__).rstrip("#")
    try:
        with schema_patterns.call_budget():
            return _validate(cls, draft, arguments)
    except PatternTimeout as exc:
        raise ToolError(
            f"schema: pattern {exc.pattern!r} did not finish on {_excerpt(exc.text)}: a pattern may take "
            f"{PATTERN_SEARCH_MS} ms on a string and all of a call's patterns {PATTERN_CALL_MS} ms (nested "
            "repeats such as (a|a)+ backtrack without end)",
            ErrorCode.INVALID_ARGUMENTS,
        ) from None
    except InvalidPattern as exc:
        raise ToolError(f"schema: not a valid JSON Schema ({draft}): {exc}", ErrorCode.INVALID_ARGUMENTS) from None


def _validate(cls: type[Validator], draft: str, arguments: JsonInput) -> JsonOutput:
    _check_schema(cls, draft, arguments.json_schema)
    document = arguments.document
    if arguments.parse_text:
        if not isinstance(document, str):
            raise ToolError(
                "document: with parse_text=true it must be a string of JSON text", ErrorCode.INVALID_ARGUMENTS
            )
        try:
            document = _parsed(document)
        except ValueError as exc:
            return JsonOutput(
                valid=False, reason=f"not JSON: {exc}", draft=draft, error_count=0, errors=[], truncated=False
            )
    # An empty registry: `$ref`s resolve inside the schema only, never over the network.
    validator = cls(
        arguments.json_schema,
        registry=Registry(),
        format_checker=_FORMATS if arguments.check_formats else None,
    )
    failures = _failures(validator, document)
    errors = [_error(failure) for failure in failures[:MAX_ERRORS]]
    return JsonOutput(
        valid=not failures,
        reason=f"{errors[0].path or '(root)'}: {errors[0].message}" if errors else None,
        draft=draft,
        error_count=len(failures),
        errors=errors,
        truncated=len(failures) > MAX_ERRORS,
    )


def _check_schema(cls: type[Validator], draft: str, schema: dict[str, Any]) -> None:
    try:
        cls.check_schema(schema, format_checker=schema_patterns.regex_format(cls.FORMAT_CHECKER))
    except SchemaError as exc:
        raise ToolError(
            f"schema: not a valid JSON Schema ({draft}): {exc.message} at {_pointer(exc.absolute_path)}",
            ErrorCode.INVALID_ARGUMENTS,
        ) from None
    except RecursionError:  # the metaschema walks the schema a few Python calls deeper per level
        raise ToolError(f"schema: nested too deeply to check ({_TOO_DEEP})", ErrorCode.INVALID_ARGUMENTS) from None


def _parsed(text: str) -> Any:
    """The JSON text's value; ValueError when it is not JSON. Valid JSON too deep to parse is an error, not a
    verdict: the document is not known to be invalid."""
    try:
        return json_text.loads(text)
    except JsonTooDeep as exc:
        raise ToolError(f"document: {exc}", ErrorCode.INVALID_ARGUMENTS) from None


def _failures(validator: Validator, document: Any) -> list[ValidationError]:
    try:
        return sorted(validator.iter_errors(document), key=lambda e: (list(map(str, e.absolute_path)), e.message))
    except Unresolvable as exc:
        raise ToolError(
            f"schema: cannot resolve $ref {exc.ref!r} (only references inside the schema work)",
            ErrorCode.INVALID_ARGUMENTS,
        ) from None
    except RecursionError:  # each level of the document, and each $ref followed, is a few Python calls deeper
        raise ToolError(
            "document and schema: validation went too deep: the document nests too deeply, or a $ref leads back "
            f'without going into the document, like {{"$ref": "#"}} ({_TOO_DEEP})',
            ErrorCode.INVALID_ARGUMENTS,
        ) from None


def _error(failure: ValidationError) -> JsonError:
    return JsonError(
        path=_pointer(failure.absolute_path),
        schema_path=_pointer(failure.absolute_schema_path),
        keyword=str(failure.validator),
        message=failure.message,
    )


def _excerpt(text: str) -> str:
    return f"{text!r} ({len(text)} characters)" if len(text) <= 40 else f"{text[:40]!r}… ({len(text)} characters)"


def _pointer(parts: Any) -> str:
    """RFC 6901 JSON Pointer of a path deque ('' is the whole document)."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in parts)
