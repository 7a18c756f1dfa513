"""pdf_merge, pdf_split, pdf_info, pdf_status: reading and rewriting PDFs with pypdf."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

from mcp_platform.contracts.pdf import (
    MARKDOWN_MAX_CHARS,
    MAX_MERGE_FILES,
    MAX_SPLIT_PARTS,
    PDF_MAX_BYTES,
    InfoInput,
    MergeInput,
    SplitInput,
    parse_ranges,
)
from mcp_platform.protocol.binary import stage_output
from mcp_platform.protocol.errors import ErrorCode, ToolError
from pdf_service.typeset import FONT_NAME

if TYPE_CHECKING:
    import pypdf
    from pypdf import PdfReader, PdfWriter

    from mcp_platform.contracts._common import StatusInput
    from mcp_platform.protocol.binary import BinaryRef
    from mcp_platform.runtime.service import ServiceContext

PDF_ENCRYPTED = "pdf_encrypted"
"""Error code: the PDF needs a password this service does not have."""
_METADATA_KEYS = {
    "/Title": "title",
    "/Author": "author",
    "/Subject": "subject",
    "/Keywords": "keywords",
    "/Creator": "creator",
    "/Producer": "producer",
    "/CreationDate": "creation_date",
    "/ModDate": "modification_date",
}


def open_pdf(ref: BinaryRef, ctx: ServiceContext, argument: str) -> PdfReader:
    """Load and parse; an empty user password is tried, any other password is refused clearly.

    pypdf is imported by the first call that reads or writes a PDF (here and below), not at init.
    """
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError, PyPdfError

    try:
        reader = PdfReader(io.BytesIO(ref.load(ctx).data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise ToolError(
                f"{argument}: the PDF is encrypted with a password; remove the password and try again",
                PDF_ENCRYPTED,
            )
        len(reader.pages)  # parses the page tree now, so a broken file fails here
    except (PdfReadError, PyPdfError, ValueError, KeyError) as exc:
        raise ToolError(f"{argument}: not a readable PDF ({exc})", ErrorCode.INVALID_ARGUMENTS) from None
    return reader


def merge(arguments: MergeInput, ctx: ServiceContext) -> dict[str, Any]:
    from pypdf import PdfWriter

    writer = PdfWriter()
    counts = []
    for index, ref in enumerate(arguments.files):
        reader = open_pdf(ref, ctx, f"files.{index}")
        writer.append(reader)
        counts.append(len(reader.pages))
    return {"file": _stage(writer, ctx, "merged.pdf"), "pages": len(writer.pages), "source_pages": counts}


def split(arguments: SplitInput, ctx: ServiceContext) -> dict[str, Any]:
    from pypdf import PdfWriter

    reader = open_pdf(arguments.file, ctx, "file")
    total = len(reader.pages)
    ranges = parse_ranges(arguments.ranges)
    if beyond := [f"{a}-{b}" if a != b else str(a) for a, b in ranges if b > total]:
        raise ToolError(
            f"ranges: {', '.join(beyond)} goes beyond the document's {total} pages", ErrorCode.INVALID_ARGUMENTS
        )
    parts = []
    for start, end in ranges:
        writer = PdfWriter()
        for number in range(start - 1, end):
            writer.add_page(reader.pages[number])
        label = f"{start}-{end}" if end != start else str(start)
        parts.append({"range": label, "pages": end - start + 1, "file": _stage(writer, ctx, f"pages-{label}.pdf")})
    return {"source_pages": total, "parts": parts}


def info(arguments: InfoInput, ctx: ServiceContext) -> dict[str, Any]:
    reader = open_pdf(arguments.file, ctx, "file")
    shown = reader.pages[: arguments.max_pages]
    text = []
    if arguments.max_chars_per_page:
        for number, page in enumerate(shown, start=1):
            content = _page_text(page)
            text.append(
                {
                    "page": number,
                    "text": content[: arguments.max_chars_per_page],
                    "truncated": len(content) > arguments.max_chars_per_page,
                }
            )
    return {
        "pages": len(reader.pages),
        "encrypted": reader.is_encrypted,
        "pdf_version": reader.pdf_header.removeprefix("%PDF-"),
        "metadata": _metadata(reader),
        "page_sizes_pt": [[round(float(p.mediabox.width), 2), round(float(p.mediabox.height), 2)] for p in shown],
        "text": text,
    }


def status(_arguments: StatusInput, _ctx: ServiceContext) -> dict[str, Any]:
    import fpdf  # their versions only
    import pypdf

    return {
        "ok": True,
        "backend": f"pypdf {pypdf.__version__}, fpdf2 {fpdf.__version__}",
        "font": FONT_NAME,
        "limits": {
            "max_bytes": PDF_MAX_BYTES,
            "max_merge_files": MAX_MERGE_FILES,
            "max_split_parts": MAX_SPLIT_PARTS,
            "markdown_max_chars": MARKDOWN_MAX_CHARS,
        },
        "version": pypdf.__version__,
    }


def _stage(writer: PdfWriter, ctx: ServiceContext, filename: str) -> dict[str, Any]:
    buffer = io.BytesIO()
    writer.write(buffer)
    return stage_output(buffer.getvalue(), "application/pdf", ctx, filename=filename).file


def _page_text(page: pypdf.PageObject) -> str:
    from pypdf.errors import PyPdfError

    try:
        return page.extract_text() or ""
    except (PyPdfError, ValueError, KeyError, TypeError):  # a damaged content stream: no text, not a failure
        return ""


def _metadata(reader: PdfReader) -> dict[str, str]:
    raw = reader.metadata or {}
    return {name: str(raw[key])[:500] for key, name in _METADATA_KEYS.items() if raw.get(key)}
