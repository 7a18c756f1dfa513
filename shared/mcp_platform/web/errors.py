"""Error codes of the web layer; each is raised as a `ToolError` a caller can act on."""

from __future__ import annotations

from enum import StrEnum


class WebErrorCode(StrEnum):
    """Codes beyond `mcp_platform.protocol.errors.ErrorCode` that every URL-taking tool shares."""

    URL_NOT_ALLOWED = "url_not_allowed"
    """The SSRF rules refuse the URL or the address it resolves to."""
    ROBOTS_DISALLOWED = "robots_disallowed"
    ROBOTS_UNREACHABLE = "robots_unreachable"
    """robots.txt could not be read (DNS, connect, timeout, 5xx): RFC 9309 disallows until it can."""
    TOO_LARGE = "too_large"
    TOO_MANY_REDIRECTS = "too_many_redirects"
    TIMEOUT = "timeout"
    HTTP_ERROR = "http_error"
    """The site answered 4xx/5xx; the status is in the error's `status` field."""
    PDF_USE_DOCS = "pdf_use_docs"
    """A PDF or office document: seed 002/003 send these to `docs_extract`."""
    UNSUPPORTED_CONTENT = "unsupported_content_type"
    NO_CONTENT = "no_content"
