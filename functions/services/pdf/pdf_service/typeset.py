"""pdf_from_markdown: markdown → HTML (markdown-it) → PDF (fpdf2) in DejaVu Sans.

Fonts: DejaVu Sans and Sans Mono 2.37 (Debian fonts-dejavu-core), vendored in
`fonts/` under the Bitstream Vera licence (`fonts/LICENSE-DejaVu.txt`), which
allows redistribution; fpdf2 embeds only the glyphs used.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from mcp_platform.protocol.binary import stage_output
from mcp_platform.protocol.errors import ErrorCode, ToolError
from mcp_platform.runtime.service import ToolOutput

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

    from mcp_platform.contracts.pdf import FromMarkdownInput
    from mcp_platform.runtime.service import ServiceContext

FONTS = Path(__file__).parent / "fonts"
FONT_NAME = "DejaVu Sans 2.37"
_FAMILY, _MONO = "DejaVu", "DejaVuMono"
_STYLES = {"": "DejaVuSans", "B": "DejaVuSans-Bold", "I": "DejaVuSans-Oblique", "BI": "DejaVuSans-BoldOblique"}


@cache
def _markdown() -> MarkdownIt:
    """The parser, built on first use: fpdf2 and markdown-it are most of this service's init otherwise."""
    from markdown_it import MarkdownIt

    # No raw HTML and no images: an <img src> would make fpdf2 read files or URLs of our choosing.
    return MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"]).disable("image")


def from_markdown(arguments: FromMarkdownInput, ctx: ServiceContext) -> ToolOutput:
    data, pages = render(arguments.markdown, arguments.title, arguments.page_size, arguments.orientation)
    staged = stage_output(data, "application/pdf", ctx, filename="document.pdf")
    return ToolOutput(structured={"file": staged.file, "pages": pages}, content=staged.content)


def render(markdown: str, title: str | None, page_size: str, orientation: str) -> tuple[bytes, int]:
    """The PDF of `markdown` and its page count; layout failures are `invalid_arguments` on `markdown`."""
    from fpdf import FPDF, TextStyle
    from fpdf.errors import FPDFException

    code = TextStyle(font_family=_MONO, font_size_pt=9.5)
    pdf = FPDF(orientation="L" if orientation == "landscape" else "P", format=page_size.lower())
    for style, stem in _STYLES.items():
        pdf.add_font(_FAMILY, style, FONTS / f"{stem}.ttf")
    pdf.add_font(_MONO, "", FONTS / "DejaVuSansMono.ttf")
    pdf.set_creator("mcp-platform pdf_from_markdown")
    if title:
        pdf.set_title(title)
    pdf.set_auto_page_break(auto=True, margin=15)
    pdf.add_page()
    pdf.set_font(_FAMILY, size=11)
    try:
        pdf.write_html(
            _markdown().render(markdown),
            font_family=_FAMILY,
            tag_styles={"code": code, "pre": code},
            warn_on_tags_not_matching=False,
        )
    except FPDFException as exc:
        raise ToolError(f"markdown: could not be laid out ({exc})", ErrorCode.INVALID_ARGUMENTS) from None
    return bytes(pdf.output()), pdf.pages_count
