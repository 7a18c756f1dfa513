"""Documentation generated from the registry, never maintained by hand.

`docs://<service>/payload` follows the layout of seeds 002/003 (request
contract with type slots, input schema, output schema, error object);
`docs://catalog`, `/llms.txt` and `/.well-known/mcp` summarise every service;
`docs://errors` lists the error registry.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from mcp_platform.protocol.errors import ERRORS
from mcp_platform.protocol.mcp import LEGACY_VERSIONS, MODERN_VERSIONS

if TYPE_CHECKING:
    from collections.abc import Iterable

    from mcp_platform.catalogue.registry import Registry, ToolSpec

ERROR_OBJECT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["error", "is_error"],
    "properties": {
        "error": {"type": "string"},
        "is_error": {"type": "boolean", "const": True},
        "code": {"type": "string"},
    },
    "additionalProperties": True,
}


def _json_block(value: Any) -> str:
    return "```json\n" + json.dumps(value, indent=2, ensure_ascii=False) + "\n```"


def _slot(name: str, schema: dict[str, Any], required: bool) -> str:
    """`<integer, optional, default 5000, minimum 1, maximum 1000000>`: a type slot, never example data."""
    kind = schema.get("type")
    if kind is None and "anyOf" in schema:
        kind = "|".join(str(b.get("type", "any")) for b in schema["anyOf"])
    parts = [str(kind or "any"), "required" if required else "optional"]
    for key in ("default", "minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems"):
        if key in schema:
            parts.append(f"{key} {json.dumps(schema[key])}")
    if "enum" in schema:
        parts.append("enum " + "|".join(str(v) for v in schema["enum"]))
    return f"<{', '.join(parts)}>"


def request_contract(spec: ToolSpec) -> dict[str, Any]:
    schema = spec.input_schema
    required = set(schema.get("required", []))
    arguments = {name: _slot(name, sub, name in required) for name, sub in schema.get("properties", {}).items()}
    return {
        "jsonrpc": "2.0",
        "id": "<integer|string>",
        "method": "tools/call",
        "params": {"name": spec.name, "arguments": arguments},
    }


def service_payload(registry: Registry, service: str, base_url: str = "") -> str:
    """The markdown of `docs://<service>/payload`."""
    specs = registry.for_service(service)
    lines = [
        f"# {service}: canonical payload contracts",
        "",
        registry.descriptions.get(service, ""),
        "",
        f"**Service id:** `{service}`  ",
        f"**MCP resource:** `docs://{service}/payload`",
        "",
        f"POST `{base_url}/mcp` with `Authorization: Bearer mcp_…`. Values below are type slots from the live "
        "input schema, not example data.",
        "",
        "RPC result wrapper: `result.structuredContent` is the object in **Output schema**; "
        "`result.content[0].text` is its JSON; `result.isError` mirrors `structuredContent.is_error`.",
    ]
    for spec in specs:
        required = spec.input_schema.get("required", [])
        lines += [
            "",
            f"## `{spec.name}`",
            "",
            spec.description,
            "",
            f"**Price:** {spec.price_label} credits" if spec.price_label != "free" else "**Price:** free",
            "",
            *_task_note(spec),
            "**Required arguments:** " + (", ".join(f"`{r}`" for r in required) if required else "_(none)_"),
            "",
            "**Request contract**",
            "",
            _json_block(request_contract(spec)),
            "",
            "**Input schema**",
            "",
            _json_block(spec.input_schema),
            "",
            "**Output schema** (`structuredContent` on success)",
            "",
            _json_block(spec.published_output_schema),
            "",
            "**Error object**",
            "",
            _json_block(ERROR_OBJECT_SCHEMA),
        ]
    return "\n".join(lines) + "\n"


_SENTENCE_END = re.compile(r"\.(?:\s+|$)")
_ABBREVIATIONS = ("e.g", "i.e", "etc", "vs", "cf")


def first_sentence(text: str) -> str:
    """`text` up to its first full stop outside brackets and after no abbreviation, without the stop.

    Examples:
        >>> first_sentence("One region by code (e.g. DE.16). Free.")
        'One region by code (e.g. DE.16)'
    """
    for end in _SENTENCE_END.finditer(text):
        head = text[: end.start()]
        if head.count("(") == head.count(")") and not head.endswith(_ABBREVIATIONS):
            return head
    return text.rstrip(".")


def catalog(registry: Registry, services: Iterable[str] | None = None) -> str:
    """The markdown of `docs://catalog`: every service and tool with its price."""
    wanted = set(services) if services is not None else None
    lines = ["# Tool catalogue", "", "1 credit = USD 0.01. Failed calls are never charged.", ""]
    lines += ["| service | tool | price (credits) | what it does |", "|---|---|---|---|"]
    for spec in registry:
        if wanted is not None and spec.service not in wanted:
            continue
        summary = first_sentence(spec.description)
        lines.append(f"| {spec.service} | `{spec.name}` | {spec.price_label} | {summary} |")
    return "\n".join(lines) + "\n"


REGISTER_PATH = "/api/auth/register"


def _signup_line(base_url: str, mode: str) -> str:
    if mode == "closed":
        return "Sign-up: closed here; an operator issues API keys."
    invite = ", invite_code" if mode == "invite" else ""
    needs = " (an invite code from the operator is required)" if mode == "invite" else ""
    return (
        f'Sign-up{needs}: POST {base_url}{REGISTER_PATH} with JSON {{"email"{invite}}} '
        '(account_type "agent" is optional) '
        "→ 201 {account_id, api_key, balance, services}; the key is shown once. One account per email."
    )


def errors() -> str:
    """The markdown of `docs://errors`: every error code, whether a retry can help, what it means."""
    lines = [
        "# Error codes",
        "",
        "A failed tool call is a result with `isError: true` and `structuredContent` = "
        "`{error: <message>, is_error: true, code, ...}`; nothing is charged. `retryable: yes` means the same "
        "call sent again later can succeed; `no` means something about the call (or the account) must change.",
        "",
        "Idempotency: send `Idempotency-Key: <unique>` with `tools/call`; the same key, tool and arguments "
        "replay the first result uncharged (with the new request's id). In a batch, members sharing the "
        "header are told apart by their JSON-RPC id.",
        "",
        "| code | retryable | meaning |",
        "|---|---|---|",
    ]
    lines += [f"| `{e.code}` | {'yes' if e.retryable else 'no'} | {e.meaning} |" for e in ERRORS.values()]
    return "\n".join(lines) + "\n"


def llms_txt(registry: Registry, base_url: str = "", signup_mode: str = "closed") -> str:
    lines = [
        "# MCP platform",
        "",
        "> One MCP endpoint (streamable HTTP, stateless JSON) in front of many tool services, billed per call "
        "in credits. Authenticate with `Authorization: Bearer mcp_…` or `X-Api-Key`.",
        "",
        f"Endpoint: {base_url}/mcp",
        "",
        _signup_line(base_url, signup_mode),
        "",
        "## Services",
        "",
    ]
    for service in registry.services:
        tools = ", ".join(spec.name for spec in registry.for_service(service))
        first_line = registry.descriptions.get(service, service).splitlines()[0]
        lines.append(f"- `{service}` ({tools}): {first_line} Contract: resource `docs://{service}/payload`.")
    return "\n".join(lines) + "\n"


def well_known(
    registry: Registry, base_url: str, server_name: str, server_version: str, signup_mode: str = "closed"
) -> dict[str, Any]:
    """`/.well-known/mcp`: how to connect (and how to get a key), for clients and directories."""
    registration: dict[str, Any] = {"mode": signup_mode}
    if signup_mode != "closed":
        registration |= {
            "endpoint": f"{base_url}{REGISTER_PATH}",
            "method": "POST",
            "body": {"email": "<string>", "account_type": "agent (optional)", "invite_code": "<string, required>"},
            "returns": ["account_id", "api_key", "balance", "services"],
        }
        if signup_mode == "open":
            registration["body"].pop("invite_code")
    return {
        "name": server_name,
        "version": server_version,
        "endpoint": f"{base_url}/mcp",
        "transport": "streamable-http",
        "stateless": True,
        "protocolVersions": [*LEGACY_VERSIONS, *MODERN_VERSIONS],
        "authentication": {"type": "api-key", "headers": ["Authorization: Bearer <key>", "X-Api-Key: <key>"]},
        "registration": registration,
        "services": [
            {"name": s, "tools": len(registry.for_service(s)), "docs": f"docs://{s}/payload"} for s in registry.services
        ],
    }


def _task_note(spec: ToolSpec) -> list[str]:
    """How to run a task-capable tool as a durable task, in both protocol eras."""
    if spec.task_support == "forbidden":
        return []
    how = "only as a task" if spec.task_support == "required" else "synchronously or as a task"
    return [
        f"**Runs {how}** (`execution.taskSupport: {spec.task_support}`): send `params.task` (2025-11-25) or "
        "declare `io.modelcontextprotocol/tasks` in `_meta` clientCapabilities (2026-07-28), then poll "
        "`tasks/get`. The price is reserved when the task starts and refunded if it fails or is cancelled.",
        "",
    ]
