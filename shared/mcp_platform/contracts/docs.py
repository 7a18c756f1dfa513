"""docs: text of PDF and office documents (and HTML/text) as markdown, by URL or staging id."""

from __future__ import annotations

import re

from pydantic import Field, field_validator, model_validator

from mcp_platform.catalogue.registry import Annotations, ToolInput, ToolSpec
from mcp_platform.contracts._common import status_tool
from mcp_platform.contracts.fetch import PublicUrl

_PAGES = re.compile(r"^\s*\d+(\s*-\s*\d+)?(\s*,\s*\d+(\s*-\s*\d+)?)*\s*$")


def parse_pages(spec: str) -> list[tuple[int, int]]:
    """`"1-3, 5"` → `[(1, 3), (5, 5)]` (1-based, inclusive); raises `ValueError` for bad ranges.

    Examples:
        >>> parse_pages("2-4,7")
        [(2, 4), (7, 7)]
    """
    if not _PAGES.match(spec):
        raise ValueError(f"{spec!r} is not a page list like 1-3,5")
    ranges = []
    for part in spec.replace(" ", "").split(","):
        first, _, last = part.partition("-")
        start, end = int(first), int(last or first)
        if start < 1 or end < start:
            raise ValueError(f"range {part!r} must be ascending and start at page 1 or later")
        ranges.append((start, end))
    return ranges


class DocsExtractInput(ToolInput):
    url: PublicUrl | None = Field(
        default=None, description="http(s) URL of the document (PDF, DOCX, XLSX, PPTX, HTML or text)."
    )
    staging_id: str | None = Field(
        default=None,
        pattern=r"^stg_[0-9a-f]{32}$",
        description="Instead of url: a staging id (stg_ + 32 hex) of a file you uploaded with staging_upload.",
    )
    max_length: int = Field(
        default=5000, ge=1, le=1_000_000, description="Maximum characters to return (default 5000)."
    )
    start_index: int = Field(default=0, ge=0, description="Character offset to continue a truncated result.")
    pages: str | None = Field(
        default=None,
        max_length=200,
        description="Pages (PDF), slides (PPTX) or sheets (XLSX) to read, 1-based, e.g. '1-3,5'. Default: all.",
    )

    @field_validator("pages")
    @classmethod
    def _pages(cls, pages: str | None) -> str | None:
        if pages is not None:
            parse_pages(pages)
        return pages

    @model_validator(mode="after")
    def _one_source(self) -> DocsExtractInput:
        if (self.url is None) == (self.staging_id is None):
            raise ValueError("give exactly one of url or staging_id")
        return self


DOCS_OUTPUT = {
    "type": "object",
    "properties": {
        "url": {"type": "string"},
        "staging_id": {"type": "string"},
        "title": {"type": "string"},
        "kind": {"type": "string", "enum": ["pdf", "docx", "xlsx", "pptx", "html", "txt"]},
        "pages": {"type": "integer", "description": "Pages (PDF), slides (PPTX), sheets (XLSX); 1 otherwise."},
        "content": {"type": "string"},
        "truncated": {"type": "boolean"},
        "next_start_index": {"type": "integer"},
    },
    "additionalProperties": True,
    "required": ["kind", "pages", "content", "truncated"],
}

TOOLS = [
    ToolSpec(
        name="docs_extract",
        service="docs",
        title="Extract document text",
        description="Reads a PDF, Word (docx), Excel (xlsx) or PowerPoint (pptx) document — or an HTML/text page — "
        "and returns its text as markdown (pages as '## Page n', sheets as tables). Use it for kind=pdf search "
        "results and whenever fetch answers pdf_use_docs. Give url or staging_id; pages='1-3' limits PDF "
        "pages/slides/sheets. If truncated, call again with start_index=next_start_index. Encrypted, corrupt, "
        "oversized and image-only (scanned) documents are error results (codes encrypted_document, "
        "corrupt_document, too_large, no_text) and cost nothing. Costs 2 credits.",
        input_model=DocsExtractInput,
        output_schema=DOCS_OUTPUT,
        annotations=Annotations(read_only=True, idempotent=True, open_world=True),
        price=2,
        task_support="optional",
    ),
    status_tool(
        "docs",
        title="Docs status",
        description="Docs service health: formats, parsers and their versions, size and page limits. Free.",
    ),
]
