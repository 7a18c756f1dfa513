"""One reader per format: bytes → title and markdown units (pages, slides, sheets).

Every reader raises `ToolError` with a docs code (encrypted_document, corrupt_document, no_text,
too_large) for what a caller can act on; library exceptions never escape.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mcp_platform.protocol.errors import ToolError
from mcp_platform.web import WebErrorCode

if TYPE_CHECKING:
    from collections.abc import Callable

ENCRYPTED = "encrypted_document"
CORRUPT = "corrupt_document"
NO_TEXT = "no_text"
UNSUPPORTED = WebErrorCode.UNSUPPORTED_CONTENT
MAX_UNPACKED_BYTES = 200 * 1024 * 1024
"""Office files are zips: refuse ones that unpack past this (zip bombs)."""
MAX_SHEET_ROWS = 2000
_OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


@dataclass(frozen=True)
class Document:
    title: str
    units: list[str]
    """Markdown of each page / slide / sheet, in order."""


def sniff_kind(data: bytes, content_type: str) -> str:
    """pdf, docx, xlsx, pptx, html or txt from the bytes (then the media type); raises when none fits."""
    if data.lstrip()[:5] == b"%PDF-":
        return "pdf"
    if data[:8] == _OLE:
        raise ToolError(
            "the file is an encrypted Office document or a legacy .doc/.xls/.ppt; save it unencrypted as "
            "docx/xlsx/pptx",
            ENCRYPTED,
        )
    if data[:4] == b"PK\x03\x04":
        return _office_kind(data)
    if content_type in ("text/html", "application/xhtml+xml") or data.lstrip()[:15].lower().startswith(
        (b"<!doctype html", b"<html")
    ):
        return "html"
    if (content_type.startswith("text/") or not content_type) and b"\x00" not in data[:4096]:
        return "txt"
    raise ToolError(
        f"unsupported document type {content_type or 'unknown'}: docs reads PDF, DOCX, XLSX, PPTX, HTML, text",
        UNSUPPORTED,
    )


def _office_kind(data: bytes) -> str:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = set(archive.namelist())
            if sum(info.file_size for info in archive.infolist()) > MAX_UNPACKED_BYTES:
                raise ToolError(f"the document unpacks to more than {MAX_UNPACKED_BYTES} bytes", WebErrorCode.TOO_LARGE)
    except zipfile.BadZipFile:
        raise ToolError("the file looks like an Office document but is not a valid zip", CORRUPT) from None
    for marker, kind in (("word/document.xml", "docx"), ("xl/workbook.xml", "xlsx"), ("ppt/presentation.xml", "pptx")):
        if marker in names:
            return kind
    raise ToolError("a zip archive that is not a docx, xlsx or pptx document", UNSUPPORTED)


def read_pdf(data: bytes) -> Document:
    from pypdf import PdfReader
    from pypdf.errors import FileNotDecryptedError, PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise ToolError("the PDF is password-protected; docs cannot open it", ENCRYPTED)
        units = [f"## Page {i}\n\n{(page.extract_text() or '').strip()}" for i, page in enumerate(reader.pages, 1)]
        title = str((reader.metadata or {}).get("/Title") or "")
    except FileNotDecryptedError:
        raise ToolError("the PDF is password-protected; docs cannot open it", ENCRYPTED) from None
    except (PdfReadError, ValueError, KeyError, TypeError):
        raise ToolError("the PDF is damaged and cannot be read", CORRUPT) from None
    return Document(title, units)


def read_docx(data: bytes) -> Document:
    import docx

    try:
        document = docx.Document(io.BytesIO(data))
    except Exception:  # python-docx raises many types for a broken package
        raise ToolError("the DOCX file is damaged and cannot be read", CORRUPT) from None
    lines: list[str] = []
    body = document.element.body
    for child in body.iterchildren():
        tag = child.tag.rsplit("}", 1)[-1]
        if tag == "p":
            lines.append(_docx_paragraph(docx.text.paragraph.Paragraph(child, document)))
        elif tag == "tbl":
            table = docx.table.Table(child, document)
            lines.append(markdown_table([[cell.text for cell in row.cells] for row in table.rows]))
    text = "\n\n".join(line for line in lines if line.strip())
    return Document(str(document.core_properties.title or ""), [text])


def _docx_paragraph(paragraph: object) -> str:
    text = paragraph.text.strip()  # type: ignore[attr-defined]
    style = (paragraph.style.name if paragraph.style is not None else "") or ""  # type: ignore[attr-defined]
    if style.startswith("Heading") and style[-1:].isdigit():
        return "#" * min(6, int(style[-1])) + " " + text
    if style == "Title":
        return "# " + text
    if style.startswith("List"):
        return "- " + text
    return text


def read_xlsx(data: bytes) -> Document:
    import openpyxl

    try:
        workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception:  # openpyxl raises many types for a broken package
        raise ToolError("the XLSX file is damaged and cannot be read", CORRUPT) from None
    units = []
    for sheet in workbook.worksheets:
        rows = []
        for row in sheet.iter_rows(values_only=True, max_row=MAX_SHEET_ROWS):
            rows.append(["" if value is None else str(value) for value in row])
        while rows and not any(rows[-1]):
            rows.pop()
        units.append(f"## Sheet: {sheet.title}\n\n{markdown_table(rows)}".rstrip())
    title = str(workbook.properties.title or "")
    workbook.close()
    return Document(title, units)


def read_pptx(data: bytes) -> Document:
    from pptx import Presentation

    try:
        presentation = Presentation(io.BytesIO(data))
    except Exception:  # python-pptx raises many types for a broken package
        raise ToolError("the PPTX file is damaged and cannot be read", CORRUPT) from None
    units = []
    for number, slide in enumerate(presentation.slides, 1):
        parts = []
        for shape in slide.shapes:
            if shape.has_text_frame and shape.text_frame.text.strip():
                parts.append(shape.text_frame.text.strip())
            elif getattr(shape, "has_table", False) and shape.has_table:
                parts.append(markdown_table([[cell.text for cell in row.cells] for row in shape.table.rows]))
        units.append(f"## Slide {number}\n\n" + "\n\n".join(parts))
    return Document(str(presentation.core_properties.title or ""), units)


def markdown_table(rows: list[list[str]]) -> str:
    """Rows as a markdown table (the first row is the header); pipes and newlines escaped."""
    if not rows:
        return ""
    width = max(len(row) for row in rows)

    def line(cells: list[str]) -> str:
        padded = [c.replace("|", "\\|").replace("\n", " ").strip() for c in cells] + [""] * (width - len(cells))
        return "| " + " | ".join(padded) + " |"

    return "\n".join([line(rows[0]), "|" + "---|" * width, *(line(row) for row in rows[1:])])


READERS: dict[str, Callable[[bytes], Document]] = {
    "pdf": read_pdf,
    "docx": read_docx,
    "xlsx": read_xlsx,
    "pptx": read_pptx,
}
