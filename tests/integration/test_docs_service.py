"""The docs service in-process, on documents generated here, served locally or staged in moto S3."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import pytest
from pypdf import PdfWriter

from docs_service.app import app
from docs_support import make_docx, make_pdf, make_pptx, make_xlsx
from tests.integration.web_site import LocalSite, Reply, site  # noqa: F401 - fixture
from tests.staging_support import service_store, staging_bucket  # noqa: F401 - fixture

if TYPE_CHECKING:
    from collections.abc import Callable


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    reply = app.handle({"tool": tool, "arguments": arguments, "account_id": "acct", "request_id": "r1"})
    return reply.structured_content


DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


def serve(site: LocalSite, path: str, body: bytes, content_type: str = "application/octet-stream") -> str:
    site.routes[path] = Reply(body=body, headers={"Content-Type": content_type})
    return site.url(path)


def test_pdf_pages_and_pagination(site: LocalSite, validate_output: Any) -> None:
    url = serve(
        site, "/r.pdf", make_pdf(["Alpha page text.", "Beta page text.", "Gamma page text."]), "application/pdf"
    )
    out = validate_output("docs_extract", call("docs_extract", url=url))
    assert out["kind"] == "pdf" and out["pages"] == 3 and out["title"] == "Report" and out["truncated"] is False
    assert out["content"].startswith("## Page 1\n\nAlpha page text.") and "## Page 3\n\nGamma" in out["content"]
    some = validate_output("docs_extract", call("docs_extract", url=url, pages="2-3", max_length=20))
    assert some["content"] == "## Page 2\n\nBeta page" and some["truncated"] is True and some["next_start_index"] == 20
    assert call("docs_extract", url=url, pages="9")["code"] == "invalid_arguments"


@pytest.mark.parametrize(
    ("maker", "kind", "expected"),
    [
        (
            make_docx,
            "docx",
            ["# Quarterly memo", "Revenue grew", "- Hire two engineers", "| Region | Growth |", "| EU | 12% |"],
        ),
        (make_xlsx, "xlsx", ["## Sheet: Prices", "| Item | Price |", "| Tea | 3.5 |", "## Sheet: Empty"]),
        (make_pptx, "pptx", ["## Slide 1", "Roadmap", "Roadmap details", "## Slide 2", "Risks details"]),
    ],
)
def test_office_formats(site: LocalSite, validate_output: Any, maker: Any, kind: str, expected: list[str]) -> None:
    out = validate_output(
        "docs_extract", call("docs_extract", url=serve(site, f"/f.{kind}", maker()), max_length=100_000)
    )
    assert out["kind"] == kind
    for fragment in expected:
        assert fragment in out["content"], (fragment, out["content"])


def test_html_and_text(site: LocalSite, validate_output: Any) -> None:
    html = (
        b"<html><head><title>H</title></head><body><article><p>"
        + b"Readable words here. " * 20
        + b"</p></article></body></html>"
    )
    out = validate_output("docs_extract", call("docs_extract", url=serve(site, "/p", html, "text/html")))
    assert out["kind"] == "html" and out["title"] == "H" and "Readable words" in out["content"]
    out = validate_output(
        "docs_extract", call("docs_extract", url=serve(site, "/t", "szöveg".encode(), "text/plain; charset=utf-8"))
    )
    assert out["kind"] == "txt" and out["content"] == "szöveg"


def test_staged_document(staging_bucket: str, validate_output: Any) -> None:
    staged = service_store().put("acct", make_docx(), DOCX, filename="memo.docx")
    out = validate_output("docs_extract", call("docs_extract", staging_id=staged.id))
    assert out["kind"] == "docx" and out["staging_id"] == staged.id and "Quarterly memo" in out["content"]
    other = app.handle(
        {
            "tool": "docs_extract",
            "arguments": {"staging_id": staged.id},
            "account_id": "someone-else",
            "request_id": "r2",
        }
    ).structured_content
    assert other["code"] == "not_found"


def _encrypted_pdf() -> bytes:
    writer = PdfWriter()
    writer.add_blank_page(200, 200)
    writer.encrypt("secret")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _blank_pdf() -> bytes:
    writer = PdfWriter()
    writer.add_blank_page(200, 200)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (_encrypted_pdf(), "encrypted_document"),
        (b"%PDF-1.7\n1 0 obj garbage", "corrupt_document"),
        (_blank_pdf(), "no_text"),
        (b"PK\x03\x04broken zip", "corrupt_document"),
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 100, "encrypted_document"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "unsupported_content_type"),
    ],
)
def test_bad_documents_are_clear_errors(site: LocalSite, body: bytes, code: str) -> None:
    out = call(
        "docs_extract", url=serve(site, "/bad", body, "image/png" if body.startswith(b"\x89") else "application/pdf")
    )
    assert out["is_error"] is True and out["code"] == code, out


def test_oversized_documents(
    site: LocalSite, monkeypatch: pytest.MonkeyPatch, reload_settings: Callable[[], None]
) -> None:
    monkeypatch.setenv("DOCS_MAX_BYTES", "1000")
    reload_settings()
    out = call("docs_extract", url=serve(site, "/big.pdf", make_pdf(["x" * 3000]), "application/pdf"))
    assert out["code"] == "too_large" and "1000 byte limit" in out["error"]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({}, "give exactly one of url or staging_id"),
        (
            {"url": "https://example.com/a.pdf", "staging_id": "stg_" + "0" * 32},
            "give exactly one of url or staging_id",
        ),
        ({"staging_id": "stg_nothex"}, "staging_id: String should match pattern"),
        ({"url": "https://example.com/a.pdf", "pages": "3-1"}, "pages: Value error, range '3-1' must be ascending"),
        ({"url": "https://example.com/a.pdf", "pages": "one"}, "is not a page list"),
        ({"url": "http://192.168.0.1/a.pdf"}, "private address"),
    ],
)
def test_bad_arguments(arguments: dict[str, Any], message: str) -> None:
    out = call("docs_extract", **arguments)
    assert out["code"] == "invalid_arguments" and message in out["error"], out


def test_docs_status(validate_output: Any) -> None:
    out = validate_output("docs_status", call("docs_status"))
    assert out["ok"] is True and set(out["parsers"]) == {"pypdf", "python-docx", "openpyxl", "python-pptx"}
    assert out["max_bytes"] == 20 * 1024 * 1024
