"""Calling the research service in-process and checking its answers against seed 004 itself."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import jsonschema

from mcp_platform.contracts.research import seed
from research_service.app import app

if TYPE_CHECKING:
    from mcp_platform.protocol.payloads import ServiceReply

LIVE_SETTINGS = {
    "SEARCH_PROVIDER": "searxng",
    "SEARCH_BASE_URL": "http://127.0.0.1:8888",
    "LLM_PROVIDER": "openai",
    "LLM_BASE_URL": "http://127.0.0.1:11434/v1",
    "LLM_MODEL": "qwen",
}
"""A self-hosted search provider and LLM: enough settings for research to run (and be priced) live."""

OUTPUT_DEFINITION = {
    "research_brief": "researchBriefOutput",
    "source_lookup": "sourceLookupOutput",
    "compare_options": "envelope",
    "credits": "creditsResponse",
}


def seed_valid(tool: str, structured: dict[str, Any]) -> None:
    """jsonschema-validate a tool's output against its definition in the seed 004 document."""
    document = seed()
    schema = {"$ref": f"#/definitions/{OUTPUT_DEFINITION[tool]}", "definitions": document["definitions"]}
    jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker()).validate(structured)


def call(tool: str, balance: int | None = None, **arguments: Any) -> ServiceReply:
    return app.handle(
        {"tool": tool, "arguments": arguments, "account_id": "acct", "request_id": "r1", "balance": balance}
    )


def ok(tool: str, reply: ServiceReply, validate_output: Any) -> dict[str, Any]:
    """The structured output, checked against the published outputSchema and seed 004."""
    validate_output(tool, reply.structured_content)
    seed_valid(tool, reply.structured_content)
    return reply.structured_content
