"""pdf: make, merge, split and inspect PDFs (fpdf2, pypdf), files through staging."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, field_validator

from mcp_platform.catalogue.registry import Annotations, ToolInput, ToolSpec
from mcp_platform.contracts._common import status_output_schema, status_tool
from mcp_platform.protocol.binary import STAGED_OBJECT_SCHEMA, binary_input

PDF_MAX_BYTES = 20 * 1024 * 1024
MAX_MERGE_FILES = 20
MAX_SPLIT_PARTS = 20
MARKDOWN_MAX_CHARS = 200_000

_Pdf = binary_input("The PDF.", max_bytes=PDF_MAX_BYTES, media_types=("application/pdf",), argument="file")
_RANGE_ITEM = re.compile(r"^(\d{1,5})(?:-(\d{1,5}))?$")


def parse_ranges(text: str) -> list[tuple[int, int]]:
    """`"1-3,7"` → `[(1, 3), (7, 7)]`; `ValueError` with the rule that is broken.

    Examples:
        >>> parse_ranges(" 1-3, 7 ")
        [(1, 3), (7, 7)]
    """
    ranges = []
    for item in text.replace(" ", "").split(","):
        match = _RANGE_ITEM.match(item)
        if match is None:
            raise ValueError(f"{item!r} is not a page or a range like 1-3 (pages count from 1)")
        start = int(match.group(1))
        end = int(match.group(2) or start)
        if start < 1 or end < start:
            raise ValueError(f"{item!r}: pages count from 1 and a range runs low to high")
        ranges.append((start, end))
    if len(ranges) > MAX_SPLIT_PARTS:
        raise ValueError(f"at most {MAX_SPLIT_PARTS} ranges")
    return ranges


class FromMarkdownInput(ToolInput):
    markdown: str = Field(
        min_length=1,
        max_length=MARKDOWN_MAX_CHARS,
        description="CommonMark with tables: headings, paragraphs, bold/italic, lists, tables, code blocks, "
        "quotes, links. Any Unicode text that DejaVu Sans covers (Latin incl. accents, Greek, Cyrillic). "
        "Images and raw HTML are not rendered.",
    )
    title: str | None = Field(default=None, max_length=300, description="Document title (PDF metadata).")
    page_size: Literal["A4", "A5", "A3", "Letter", "Legal"] = Field(default="A4")
    orientation: Literal["portrait", "landscape"] = Field(default="portrait")


class MergeInput(ToolInput):
    files: list[_Pdf] = Field(  # type: ignore[valid-type]
        min_length=2,
        max_length=MAX_MERGE_FILES,
        description="The PDFs in the order their pages should appear; each a URL, staging id or base64.",
    )


class SplitInput(ToolInput):
    file: _Pdf  # type: ignore[valid-type]  # an Annotated type built by binary_input
    ranges: str = Field(
        max_length=500,
        description="Comma-separated pages or ranges, e.g. '1-3,7'; each item becomes one output PDF. "
        "Pages count from 1.",
    )

    @field_validator("ranges")
    @classmethod
    def _parses(cls, value: str) -> str:
        parse_ranges(value)
        return value


class InfoInput(ToolInput):
    file: _Pdf  # type: ignore[valid-type]  # an Annotated type built by binary_input
    max_chars_per_page: int = Field(
        default=1000, ge=0, le=5000, description="Text returned per page; 0 returns no text."
    )
    max_pages: int = Field(default=20, ge=0, le=200, description="Pages whose text is returned, from page 1.")


_PAGES = {"type": "integer", "minimum": 0}

_NEW_FILE = Annotations(read_only=False, idempotent=False)
"""Each call stores a new file: not read-only, not idempotent."""

TOOLS = [
    ToolSpec(
        name="pdf_from_markdown",
        service="pdf",
        title="PDF from markdown",
        description="Typesets markdown or plain text (headings, lists, tables, code, quotes; full Unicode incl. "
        "accented Latin) into a PDF document such as a report, letter or invoice, and returns it as a staged "
        "file (download URL; pass file.id to other tools). 2 credits.",
        input_model=FromMarkdownInput,
        output_schema={
            "type": "object",
            "properties": {"file": STAGED_OBJECT_SCHEMA, "pages": _PAGES},
            "required": ["file", "pages"],
            "additionalProperties": False,
        },
        annotations=_NEW_FILE,
        price=2,
    ),
    ToolSpec(
        name="pdf_merge",
        service="pdf",
        title="Merge PDFs",
        description=f"Joins 2 to {MAX_MERGE_FILES} PDFs into one, in the given order, keeping every page. "
        "Password-protected PDFs are refused. 1 credit.",
        input_model=MergeInput,
        output_schema={
            "type": "object",
            "properties": {
                "file": STAGED_OBJECT_SCHEMA,
                "pages": _PAGES,
                "source_pages": {"type": "array", "items": _PAGES, "description": "Pages taken from each input."},
            },
            "required": ["file", "pages", "source_pages"],
            "additionalProperties": False,
        },
        annotations=_NEW_FILE,
        price=1,
    ),
    ToolSpec(
        name="pdf_split",
        service="pdf",
        title="Split a PDF",
        description="Cuts a PDF into parts by page ranges ('1-3,7' gives two PDFs: pages 1-3 and page 7). 1 credit.",
        input_model=SplitInput,
        output_schema={
            "type": "object",
            "properties": {
                "source_pages": _PAGES,
                "parts": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "range": {"type": "string"},
                            "pages": _PAGES,
                            "file": STAGED_OBJECT_SCHEMA,
                        },
                        "required": ["range", "pages", "file"],
                        "additionalProperties": False,
                    },
                },
            },
            "required": ["source_pages", "parts"],
            "additionalProperties": False,
        },
        annotations=_NEW_FILE,
        price=1,
    ),
    ToolSpec(
        name="pdf_info",
        service="pdf",
        title="PDF info",
        description="Page count, PDF version, metadata (title, author, dates, ...), whether it is encrypted, "
        "page sizes and the text of the first pages (capped per page). For full text extraction use "
        "docs_extract. 1 credit.",
        input_model=InfoInput,
        output_schema={
            "type": "object",
            "properties": {
                "pages": _PAGES,
                "encrypted": {"type": "boolean"},
                "pdf_version": {"type": "string"},
                "metadata": {"type": "object", "additionalProperties": {"type": "string"}},
                "page_sizes_pt": {
                    "type": "array",
                    "description": "[width, height] in points of each of the first pages.",
                    "items": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2},
                },
                "text": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "page": {"type": "integer", "minimum": 1},
                            "text": {"type": "string"},
                            "truncated": {"type": "boolean"},
                        },
                        "required": ["page", "text", "truncated"],
                        "additionalProperties": False,
                    },
                },
            },
            "required": ["pages", "encrypted", "pdf_version", "metadata", "page_sizes_pt", "text"],
            "additionalProperties": False,
        },
        price=1,
    ),
    status_tool(
        "pdf",
        title="PDF service status",
        description="Library versions, font and limits of the PDF tools. Free.",
        output_schema=status_output_schema(
            {
                "backend": {"type": "string"},
                "font": {"type": "string"},
                "limits": {"type": "object", "additionalProperties": {"type": "integer"}},
                "version": {"type": "string"},
            },
            required=["backend", "font", "limits", "version"],
        ),
    ),
]
