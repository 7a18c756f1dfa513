"""Fetching public URLs safely: the web layer shared by fetch, search, docs and research.

Public API:

* `check_url(url)` — syntax-level SSRF check (scheme, host, IP literals); fit for input validators.
* `download(url, limits=FetchLimits(...))` — guarded GET: resolves once and connects to the checked
  public address, re-checks each redirect (≤ 5), caps bytes (10 MB default) and time. → `Download`.
* `fetch_page(url, raw=False)` — `download` + robots.txt + content-type dispatch → `Page`
  (markdown for HTML, text/JSON as text; PDFs and office files raise `pdf_use_docs`).
* `extract(html, url)` — main content of HTML as markdown (`Extracted(title, markdown)`).
* `paginate(content, start_index=, max_length=)` — the fetch contract's truncation fields.
* `WebErrorCode` — the error codes all of these raise (as `ToolError`).

Third-party packages come from the `web` layer (`layers/web/requirements.txt`): attach it to
any function that imports this package. Tests set `SSRF_ALLOW_LOOPBACK=1` to reach local servers.
"""

from __future__ import annotations

from mcp_platform.web.addresses import ALLOW_LOOPBACK_ENV, BlockedAddressError, check_url, forbidden_reason
from mcp_platform.web.errors import WebErrorCode
from mcp_platform.web.extract import Extracted, extract, extractor_version
from mcp_platform.web.http import Download, FetchLimits, download, user_agent
from mcp_platform.web.page import Page, classify, fetch_page, is_document_type, paginate

__all__ = [
    "ALLOW_LOOPBACK_ENV",
    "BlockedAddressError",
    "Download",
    "Extracted",
    "FetchLimits",
    "Page",
    "WebErrorCode",
    "check_url",
    "classify",
    "download",
    "extract",
    "extractor_version",
    "fetch_page",
    "forbidden_reason",
    "is_document_type",
    "paginate",
    "user_agent",
]
