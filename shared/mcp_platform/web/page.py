"""`fetch_page`: a public URL as text for a model to read, and `paginate` for long results.

The pipeline: SSRF-checked download (robots.txt honoured) → dispatch on the content type:
HTML → main content as markdown (or the HTML itself with `raw`), text passes through, JSON is
pretty-printed, PDF and office documents → `pdf_use_docs` (docs_extract reads them), images and
other binaries → `unsupported_content_type`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from mcp_platform.protocol import json_text
from mcp_platform.protocol.errors import ErrorCode, ToolError
from mcp_platform.web.errors import WebErrorCode
from mcp_platform.web.extraction import extract
from mcp_platform.web.http import FetchLimits, download
from mcp_platform.web.robots import RobotsRules
from mcp_platform.web.text import decode_body

if TYPE_CHECKING:
    import httpx


PageKind = Literal["html", "text", "json"]

_HTML = frozenset({"text/html", "application/xhtml+xml"})
_JSON_SUFFIX = "+json"
_TEXT_LIKE = frozenset(
    {
        "application/json",
        "application/xml",
        "application/javascript",
        "application/x-javascript",
        "application/rss+xml",
        "application/atom+xml",
        "application/ld+json",
        "application/x-ndjson",
        "application/yaml",
        "application/toml",
    }
)
_DOCUMENT_TYPES = frozenset(
    {
        "application/pdf",
        "application/x-pdf",
        "application/msword",
        "application/vnd.ms-excel",
        "application/vnd.ms-powerpoint",
        "application/rtf",
        "text/rtf",
    }
)
_DOCUMENT_PREFIXES = ("application/vnd.openxmlformats-officedocument.", "application/vnd.oasis.opendocument.")
ACCEPT = "text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.5"

_robots = RobotsRules()


@dataclass(frozen=True)
class Page:
    """A fetched page as text. `content` is markdown for HTML (unless raw), else the text itself."""

    url: str
    final_url: str
    status: int
    content_type: str
    kind: PageKind
    title: str
    content: str
    redirects: tuple[int, ...] = ()
    """Status codes of the redirects followed to `final_url` (research reports a moved page by them)."""


def fetch_page(
    url: str,
    *,
    raw: bool = False,
    limits: FetchLimits | None = None,
    robots: bool = True,
    client: httpx.Client | None = None,
) -> Page:
    """Fetch `url` and return its readable content; raises `ToolError` with a `WebErrorCode`.

    Examples:
        >>> page = fetch_page("https://example.com/")
        >>> page.kind, page.title
        ('html', 'Example Domain')
    """
    got = download(url, limits=limits, accept=ACCEPT, allowed=_robots if robots else None, client=client)
    kind = classify(got.content_type, got.body)
    text = decode_body(got.body, got.headers.get("content-type"))
    title = ""
    if kind == "html" and not raw:
        extracted = extract(text, got.final_url)
        if not extracted.markdown.strip():
            raise ToolError(
                f"{got.final_url}: no main content found in the HTML; call again with raw=true for the page itself",
                WebErrorCode.NO_CONTENT,
            )
        title, text = extracted.title, extracted.markdown
    elif kind == "json":
        text = _pretty_json(text)
    return Page(
        url=url,
        final_url=got.final_url,
        status=got.status,
        content_type=got.content_type or "unknown",
        kind=kind,
        title=title,
        content=text,
        redirects=got.redirects,
    )


def classify(content_type: str, body: bytes) -> PageKind:
    """What kind of text a response is, from its media type and first bytes; raises for documents/binaries."""
    head = body[:1024].lstrip()
    if head.startswith(b"%PDF-") or is_document_type(content_type):
        raise ToolError(
            f"this URL is a document ({content_type or 'PDF'}); use docs_extract to read PDF and office files",
            WebErrorCode.PDF_USE_DOCS,
            content_type=content_type,
        )
    if content_type in _HTML:
        return "html"
    if content_type == "application/json" or content_type.endswith(_JSON_SUFFIX):
        return "json"
    if content_type.startswith("text/") or content_type in _TEXT_LIKE or content_type.endswith("+xml"):
        return "text"
    if content_type in ("", "application/octet-stream") and b"\x00" not in head:
        return "html" if head[:15].lower().startswith((b"<!doctype html", b"<html")) else "text"
    raise ToolError(
        f"content type {content_type or 'unknown'} is not text; fetch reads HTML, text and JSON only",
        WebErrorCode.UNSUPPORTED_CONTENT,
        content_type=content_type,
    )


def is_document_type(content_type: str) -> bool:
    """True for PDF and office media types (the docs service's formats)."""
    return content_type in _DOCUMENT_TYPES or content_type.startswith(_DOCUMENT_PREFIXES)


def _pretty_json(text: str) -> str:
    try:
        return json.dumps(json_text.loads(text), indent=2, ensure_ascii=False)
    except ValueError:
        return text


def paginate(content: str, *, start_index: int, max_length: int) -> dict[str, Any]:
    """The window `[start_index, start_index + max_length)` of `content` with truncation fields.

    Returns `{content, truncated, next_start_index?, total_length}`; `next_start_index` is present
    only when more remains. A start beyond the end is an `invalid_arguments` error.

    Examples:
        >>> paginate("abcdef", start_index=0, max_length=4)
        {'content': 'abcd', 'truncated': True, 'total_length': 6, 'next_start_index': 4}
    """
    total = len(content)
    if start_index and start_index >= total:
        raise ToolError(
            f"start_index: {start_index} is past the end of the content ({total} characters)",
            ErrorCode.INVALID_ARGUMENTS,
        )
    window = content[start_index : start_index + max_length]
    end = start_index + len(window)
    out: dict[str, Any] = {"content": window, "truncated": end < total, "total_length": total}
    if end < total:
        out["next_start_index"] = end
    return out
