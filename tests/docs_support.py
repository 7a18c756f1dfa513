"""Documents generated for docs tests (PDF, DOCX, XLSX, PPTX): known text in known places."""

from __future__ import annotations

import io

import docx
import openpyxl
from fpdf import FPDF
from pptx import Presentation


def make_pdf(pages: list[str], title: str = "Report") -> bytes:
    pdf = FPDF()
    pdf.set_title(title)
    pdf.set_font("helvetica", size=12)
    for text in pages:
        pdf.add_page()
        pdf.multi_cell(0, 10, text)
    return bytes(pdf.output())


def make_docx() -> bytes:
    document = docx.Document()
    document.core_properties.title = "Memo"
    document.add_heading("Quarterly memo", level=1)
    document.add_paragraph("Revenue grew in every region.")
    document.add_paragraph("Hire two engineers", style="List Bullet")
    table = document.add_table(rows=2, cols=2)
    for (r, c), text in {(0, 0): "Region", (0, 1): "Growth", (1, 0): "EU", (1, 1): "12%"}.items():
        table.cell(r, c).text = text
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def make_xlsx() -> bytes:
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = "Prices"
    for row in (["Item", "Price"], ["Tea", 3.5], ["Coffee", 4]):
        sheet.append(row)
    workbook.create_sheet("Empty")
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def make_pptx() -> bytes:
    deck = Presentation()
    for title in ("Roadmap", "Risks"):
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = title
        slide.placeholders[1].text = f"{title} details"
    out = io.BytesIO()
    deck.save(out)
    return out.getvalue()
