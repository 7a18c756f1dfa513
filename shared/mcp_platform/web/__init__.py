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

`check_url` and `download` need only httpx, which the common layer carries: any function may
download through them (binary URL inputs in `mcp_platform.protocol.binary` do). `extract`, `fetch_page` and
robots.txt need trafilatura and protego from the `web` layer (`layers/web/requirements.txt`):
attach it to the functions that use those. What a function's settings add to the SSRF rules (extra ports,
the test-only loopback switch) is its `AddressPolicy`, applied at cold start (`apply_policy`).
"""

from __future__ import annotations

import importlib
from typing import Any

# Lazy exports: contracts import `mcp_platform.web.addresses` (stdlib only) from the router, which
# does not carry the web layer; importing the package must not pull in httpx or trafilatura.
_EXPORTS = {
    "AddressPolicy": "addresses",
    "BlockedAddressError": "addresses",
    "apply_policy": "addresses",
    "check_url": "addresses",
    "forbidden_reason": "addresses",
    "public_url": "addresses",
    "WebErrorCode": "errors",
    "EXTRACTOR": "extraction",
    "Extracted": "extraction",
    "extract": "extraction",
    "extractor_version": "extraction",
    "Download": "http",
    "FetchLimits": "http",
    "download": "http",
    "user_agent": "http",
    "Page": "page",
    "classify": "page",
    "fetch_page": "page",
    "is_document_type": "page",
    "paginate": "page",
}
__all__ = [  # noqa: RUF022 - the public API, grouped by module as _EXPORTS is
    "AddressPolicy", "BlockedAddressError", "apply_policy", "check_url", "forbidden_reason", "public_url",
    "WebErrorCode",
    "EXTRACTOR", "Extracted", "extract", "extractor_version",
    "Download", "FetchLimits", "download", "user_agent",
    "Page", "classify", "fetch_page", "is_document_type", "paginate",
]  # fmt: skip


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_EXPORTS[name]}"), name)
