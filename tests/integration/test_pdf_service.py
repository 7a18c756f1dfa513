"""pdf_* tools: typeset → info round trip, merge order, split ranges, encrypted and broken input."""

from __future__ import annotations

import base64
import io
import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import boto3
import pytest
from pypdf import PdfReader, PdfWriter

from pdf_service.app import app
from staging_support import BUCKET, staging_bucket  # noqa: F401 - fixture

if TYPE_CHECKING:
    from collections.abc import Iterator

pytestmark = pytest.mark.usefixtures("staging_bucket")

HUNGARIAN = "Árvíztűrő tükörfúrógép — őŐűŰ"
MARKDOWN = f"""# {HUNGARIAN}

Some **bold**, *italic* and `inline code`.

## A list
- első
- második
  - beágyazott

1. one
2. two

| név | érték |
|-----|-------|
| ő   | 42    |

```python
print("hello")
```

> a quote
"""


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    reply = app.handle({"tool": tool, "arguments": arguments, "account_id": "acct_p", "request_id": "r1"})
    return reply.structured_content


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def blank_pdf(pages: int, width: float = 200) -> bytes:
    """A PDF whose page i (1-based) is `width + i` points wide, so order is checkable."""
    writer = PdfWriter()
    for number in range(1, pages + 1):
        writer.add_blank_page(width=width + number, height=300)
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def stored(file: dict[str, Any]) -> bytes:
    return boto3.client("s3").get_object(Bucket=BUCKET, Key=f"acct_p/{file['id']}")["Body"].read()


def widths(data: bytes) -> list[float]:
    return [float(page.mediabox.width) for page in PdfReader(io.BytesIO(data)).pages]


def test_markdown_to_pdf_round_trips_through_info(validate_output) -> None:
    made = validate_output("pdf_from_markdown", call("pdf_from_markdown", markdown=MARKDOWN, title="Próba"))
    assert made["file"]["media_type"] == "application/pdf"
    assert made["pages"] == 1
    info = validate_output("pdf_info", call("pdf_info", file=made["file"]["id"]))
    assert info["pages"] == 1
    assert info["encrypted"] is False
    assert info["metadata"]["title"] == "Próba"
    text = info["text"][0]["text"]
    for expected in (HUNGARIAN, "beágyazott", "érték", 'print("hello")', "a quote"):
        assert expected in text
    assert info["page_sizes_pt"] == [[pytest.approx(595.28, abs=0.1), pytest.approx(841.89, abs=0.1)]]


def test_long_markdown_flows_onto_pages_and_text_is_capped(validate_output) -> None:
    long = "\n\n".join(f"Paragraph {i}: " + "lorem ipsum " * 40 for i in range(60))
    made = validate_output("pdf_from_markdown", call("pdf_from_markdown", markdown=long, page_size="A5"))
    assert made["pages"] > 3
    info = validate_output("pdf_info", call("pdf_info", file=made["file"]["id"], max_chars_per_page=50, max_pages=2))
    assert info["pages"] == made["pages"]
    assert len(info["text"]) == 2
    assert all(len(t["text"]) <= 50 and t["truncated"] for t in info["text"])


def test_landscape_letter() -> None:
    made = call("pdf_from_markdown", markdown="hi", page_size="Letter", orientation="landscape")
    assert widths(stored(made["file"])) == [pytest.approx(792.0)]


_RECORDERS: list[list[str]] = []


def _record_opens(event: str, args: tuple[Any, ...]) -> None:
    if _RECORDERS and event in ("open", "urllib.Request", "os.listdir") and args:
        for paths in _RECORDERS:
            paths.append(str(args[0]))


sys.addaudithook(_record_opens)  # audit hooks stay for the process: this one records only inside `opened_paths`


@contextmanager
def opened_paths() -> Iterator[list[str]]:
    """Every file this process opens or lists, and every URL it requests through urllib, meanwhile."""
    paths: list[str] = []
    _RECORDERS.append(paths)
    try:
        yield paths
    finally:
        _RECORDERS.remove(paths)


def test_images_and_html_are_not_rendered() -> None:
    with opened_paths() as opened:
        made = call("pdf_from_markdown", markdown='![x](file:///etc/passwd) <img src="/etc/passwd">')
    assert opened, "the audit hook saw nothing: it is not recording"
    assert not [path for path in opened if "passwd" in path]  # neither opened nor fetched as a URL
    page = PdfReader(io.BytesIO(stored(made["file"]))).pages[0]
    assert len(page.images) == 0
    xobjects = page["/Resources"].get_object().get("/XObject", {})
    assert not [n for n, x in xobjects.items() if x.get_object().get("/Subtype") == "/Image"]
    assert "<img" in page.extract_text()  # shown as text, not loaded


def test_merge_keeps_order_and_page_count(validate_output) -> None:
    first, second = blank_pdf(2, width=100), blank_pdf(3, width=400)
    out = validate_output("pdf_merge", call("pdf_merge", files=[b64(second), b64(first)]))
    assert (out["pages"], out["source_pages"]) == (5, [3, 2])
    assert widths(stored(out["file"])) == [401, 402, 403, 101, 102]


def test_split_ranges(validate_output) -> None:
    out = validate_output("pdf_split", call("pdf_split", file=b64(blank_pdf(8)), ranges="1-3,7"))
    assert out["source_pages"] == 8
    assert [(p["range"], p["pages"]) for p in out["parts"]] == [("1-3", 3), ("7", 1)]
    assert widths(stored(out["parts"][0]["file"])) == [201, 202, 203]
    assert widths(stored(out["parts"][1]["file"])) == [207]


def test_split_beyond_the_end() -> None:
    out = call("pdf_split", file=b64(blank_pdf(4)), ranges="2-3,4-6,9")
    assert out["code"] == "invalid_arguments"
    assert out["error"] == "ranges: 4-6, 9 goes beyond the document's 4 pages"


def encrypted(password: str) -> bytes:
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(blank_pdf(2))))
    writer.encrypt(user_password=password, owner_password="owner")
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("tool", "arguments", "field"),
    [
        ("pdf_info", lambda pdf: {"file": pdf}, "file"),
        ("pdf_split", lambda pdf: {"file": pdf, "ranges": "1"}, "file"),
        ("pdf_merge", lambda pdf: {"files": [b64(blank_pdf(1)), pdf]}, "files.1"),
    ],
)
def test_password_protected_pdf_is_a_clear_error(tool: str, arguments: Any, field: str) -> None:
    out = call(tool, **arguments(b64(encrypted("secret"))))
    assert out["code"] == "pdf_encrypted"
    assert out["error"].startswith(f"{field}: the PDF is encrypted with a password")


def test_owner_only_encryption_is_readable(validate_output) -> None:
    info = validate_output("pdf_info", call("pdf_info", file=b64(encrypted(""))))
    assert (info["encrypted"], info["pages"]) == (True, 2)


def test_broken_pdf() -> None:
    out = call("pdf_info", file=b64(b"%PDF-1.7\n garbage without xref"))
    assert out["code"] == "invalid_arguments"
    assert out["error"].startswith("file: not a readable PDF")


def test_status(validate_output) -> None:
    out = validate_output("pdf_status", call("pdf_status"))
    assert out["font"].startswith("DejaVu Sans")
    assert out["limits"]["max_merge_files"] == 20


@pytest.mark.parametrize(
    ("tool", "arguments", "field"),
    [
        ("pdf_from_markdown", {"markdown": ""}, "markdown"),
        ("pdf_from_markdown", {"markdown": "x", "page_size": "B5"}, "page_size"),
        ("pdf_merge", {"files": ["stg_" + "0" * 32]}, "files"),
        ("pdf_split", {"file": "stg_" + "0" * 32, "ranges": "3-1"}, "ranges"),
        ("pdf_info", {"file": b64(b"\x89PNG\r\n\x1a\n")}, "file"),
        ("pdf_info", {"file": "stg_" + "0" * 32, "max_chars_per_page": 9000}, "max_chars_per_page"),
        ("pdf_status", {"verbose": True}, "verbose"),
    ],
)
def test_bad_input_names_the_field(tool: str, arguments: dict[str, Any], field: str) -> None:
    out = call(tool, **arguments)
    assert out["code"] == "invalid_arguments"
    assert f"{field}:" in out["error"]


def test_missing_staged_file() -> None:
    assert call("pdf_info", file="stg_" + "0" * 32)["code"] == "not_found"
