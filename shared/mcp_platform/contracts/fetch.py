"""fetch: a public URL as markdown (seed 002, binding: names, inputs and output schemas)."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field

from mcp_platform.catalogue.registry import Annotations, ToolInput, ToolSpec
from mcp_platform.contracts._common import status_tool
from mcp_platform.web.addresses import public_url

PublicUrl = Annotated[str, AfterValidator(public_url)]
"""An http(s) URL that is not an IP literal of a private address (hostnames are re-checked after DNS)."""


class FetchInput(ToolInput):
    url: PublicUrl = Field(description="URL to fetch (http or https)")
    max_length: int = Field(
        default=5000, ge=1, le=1_000_000, description="Maximum number of characters to return (default 5000)."
    )
    start_index: int = Field(
        default=0, ge=0, description="Start returning output at this character index (use after a truncated fetch)."
    )
    raw: bool = Field(default=False, description="Return raw page body without Readability simplification.")


ERROR_SCHEMA_NOTE = (
    "Errors are results with is_error true and a code: url_not_allowed (private/loopback/metadata address or "
    "non-http URL), robots_disallowed, robots_unreachable (retryable), http_error (with status), too_large, "
    "timeout, too_many_redirects, "
    "pdf_use_docs (use docs_extract), unsupported_content_type, no_content. Failed calls cost nothing."
)

FETCH_OUTPUT = {
    "type": "object",
    "properties": {
        "url": {"type": "string"},
        "title": {"type": "string"},
        "content": {"type": "string"},
        "truncated": {"type": "boolean"},
    },
    "additionalProperties": True,
    "required": ["url", "content"],
}

TOOLS = [
    ToolSpec(
        name="fetch",
        service="fetch",
        title="Fetch a web page",
        description="Fetches a URL from the internet and extracts its contents as markdown. Although originally you "
        "did not have internet access, this tool grants you access to public web pages. Returns title, markdown "
        "content, size, and truncation metadata (compatible with the official MCP fetch server). If truncated is "
        "true, call again with start_index=next_start_index. raw=true returns the page body unsimplified. Text and "
        "JSON pass through; PDFs and office files: use docs_extract. Honours robots.txt; public addresses only. "
        f"Costs 1 credit. {ERROR_SCHEMA_NOTE}",
        input_model=FetchInput,
        output_schema=FETCH_OUTPUT,
        annotations=Annotations(read_only=True, idempotent=True, open_world=True),
        price=1,
    ),
    status_tool(
        "fetch",
        title="Fetch status",
        description="Fetch service health and default limits: byte and time caps, redirects, user agent, extractor "
        "and its version. Free.",
    ),
]
