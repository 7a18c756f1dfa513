"""docs_extract and docs_status: load the bytes (URL or staging), pick the reader, window the text."""

from __future__ import annotations

from importlib.metadata import version
from typing import TYPE_CHECKING, Any

from docs_service.readers import NO_TEXT, READERS, Document, sniff_kind
from docs_service.settings import settings
from mcp_platform.contracts.docs import parse_pages
from mcp_platform.protocol.errors import ErrorCode, ToolError
from mcp_platform.storage import staging_store
from mcp_platform.web import FetchLimits, download, extract, paginate
from mcp_platform.web.robots import RobotsRules
from mcp_platform.web.text import decode_body

if TYPE_CHECKING:
    from mcp_platform.contracts._common import StatusInput
    from mcp_platform.contracts.docs import DocsExtractInput
    from mcp_platform.runtime.service import ServiceContext

_ACCEPT = "application/pdf,application/vnd.openxmlformats-officedocument.*,text/html;q=0.8,text/*;q=0.5,*/*;q=0.1"
_robots = RobotsRules()


def max_bytes() -> int:
    return settings().docs_max_bytes


def _load(arguments: DocsExtractInput, ctx: ServiceContext) -> tuple[bytes, str]:
    """The document's bytes and declared media type."""
    if arguments.staging_id:
        obj, data = staging_store.store_for(ctx.staging_bucket).read(ctx.account_id, arguments.staging_id, max_bytes())
        return data, obj.media_type
    limits = FetchLimits.of(settings()).within(ctx.seconds_left() - 5.0)
    got = download(
        str(arguments.url),
        limits=FetchLimits(max_bytes(), limits.connect_timeout, limits.total_timeout),
        accept=_ACCEPT,
        allowed=_robots,
    )
    return got.body, got.content_type


def _read(kind: str, data: bytes, content_type: str, url: str | None) -> Document:
    if kind in READERS:
        return READERS[kind](data)
    text = decode_body(data, content_type)
    if kind == "html":
        extracted = extract(text, url)
        return Document(extracted.title, [extracted.markdown])
    return Document("", [text])


def _select(units: list[str], spec: str | None) -> list[str]:
    if not spec:
        return units
    chosen = []
    for start, end in parse_pages(spec):
        if start > len(units):
            raise ToolError(
                f"pages: {start} is past the end (the document has {len(units)})", ErrorCode.INVALID_ARGUMENTS
            )
        chosen.extend(units[start - 1 : min(end, len(units))])
    return chosen


def docs_extract(arguments: DocsExtractInput, ctx: ServiceContext) -> dict[str, Any]:
    data, content_type = _load(arguments, ctx)
    kind = sniff_kind(data, content_type)
    document = _read(kind, data, content_type, arguments.url)
    selected = _select(document.units, arguments.pages)
    content = "\n\n".join(selected).strip()
    if not _has_text(content):
        hint = " (a scanned, image-only PDF: it has no text layer)" if kind == "pdf" else ""
        raise ToolError(f"the document has no extractable text{hint}", NO_TEXT, kind=kind)
    window = paginate(content, start_index=arguments.start_index, max_length=arguments.max_length)
    source = {"url": arguments.url} if arguments.url else {"staging_id": arguments.staging_id}
    return {**source, "title": document.title, "kind": kind, "pages": len(document.units), **window}


def _has_text(content: str) -> bool:
    """True when something beyond our own '## Page n' headings is there."""
    return any(line.strip() and not line.startswith("## ") for line in content.splitlines())


def docs_status(_arguments: StatusInput, _ctx: ServiceContext) -> dict[str, Any]:
    return {
        "ok": True,
        "formats": ["pdf", "docx", "xlsx", "pptx", "html", "txt"],
        "parsers": {name: version(name) for name in ("pypdf", "python-docx", "openpyxl", "python-pptx")},
        "max_bytes": max_bytes(),
        "sources": ["url", "staging_id"],
        "ocr": False,
    }
