"""Main content of an HTML page as markdown.

Chosen by 5-fold cross-validation on the article-extraction benchmark (`bench/extraction.py`,
numbers in its docstring): trafilatura's balanced mode, whose markdown keeps headings, lists,
tables, code and emphasis, generalises better than its precision mode, which scores higher on
the developer pages but cuts real paragraphs on unseen ones. Precision is used only where an
independent extractor agrees with it: readability (trafilatura's bundled fork, a few ms on the
parsed tree) is asked for its opinion of the page; when the balanced extraction and readability
disagree, the precision extraction is computed too and kept if it is closer to readability.
Links are extracted off and restored here from the page: an `<a>` is linked in the markdown only
when the text of its enclosing block is part of the extracted content, which keeps navigation
links out.
"""

from __future__ import annotations

import re
from collections import Counter
from copy import deepcopy
from dataclasses import dataclass
from importlib.metadata import version
from typing import TYPE_CHECKING
from urllib.parse import urljoin

if TYPE_CHECKING:
    from lxml.html import HtmlElement

_BLOCKS = frozenset({"p", "li", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "dd", "dt", "pre"})
_SPACE = re.compile(r"\s+")
_MARKS = re.compile(r"[*`_|]")
_WORD = re.compile(r"\w+")
_LINE_PREFIX = re.compile(r"^\s*(#{1,6}\s|[-*+]\s|\d+\.\s|>\s?)")
_MIN_CONTENT_CHARS = 200
# Inline HTML that trafilatura keeps in its markdown but markdown has no mark for.
_INLINE_HTML = re.compile(r"</?(?:u|sup|sub|ins|mark|small)>")

AGREEMENT = 0.95
"""Shingle similarity to readability at or above which the balanced extraction is kept as is.

Below it the precision extraction is computed and kept when it agrees better. 0.95 was chosen by
nested cross-validation (bench/extraction.py --folds 5); 1.0 (always compare) scores the same
and costs a second trafilatura pass on every page instead of on about a third of them.
"""


@dataclass(frozen=True)
class Extracted:
    """What `extract` found: the page title (may be empty) and the main content as markdown."""

    title: str
    markdown: str


def extract(html: str, url: str | None = None) -> Extracted:
    """The title and main content of `html` as markdown (empty markdown when nothing looks like content).

    Examples:
        >>> extract("<html><title>T</title><body><article><p>Some long text ...</p></article></body></html>").title
        'T'
    """
    import trafilatura  # here and below, not at module level: ~100 ms of a service's init, paid on first use

    tree = trafilatura.load_html(html)
    if tree is None:
        return Extracted(title="", markdown="")
    markdown = main_content(tree, url)
    return Extracted(title=page_title(tree), markdown=_restore_links(_tidy(markdown), tree, url))


def main_content(tree: HtmlElement, url: str | None, agreement: float = AGREEMENT) -> str:
    """trafilatura's markdown of the page's main content, precision mode only where readability backs it."""
    balanced = _trafilatura(tree, url)
    if len(balanced) < _MIN_CONTENT_CHARS:
        # A short answer usually means the page defeated the heuristics: a full pass with fallbacks.
        return max(balanced, _trafilatura(tree, url, fast=False, favor_recall=True), key=len)
    judge = _shingles(_readability(deepcopy(tree)).text_content())
    balanced_fit = _similarity(_shingles(balanced), judge)
    if balanced_fit >= agreement:
        return balanced
    precise = _trafilatura(tree, url, favor_precision=True)
    return precise if _similarity(_shingles(precise), judge) > balanced_fit else balanced


EXTRACTOR = "trafilatura (balanced; precision where readability agrees) + link restoration"


def extractor_version() -> str:
    """The version of the library doing the extraction (trafilatura), for status tools and the benchmark."""
    return version("trafilatura")


def page_title(tree: HtmlElement) -> str:
    """`og:title`, else `<title>`, else the first `<h1>`; whitespace collapsed."""
    for xpath in ('//meta[@property="og:title"]/@content', "//title/text()", "//h1"):
        found = tree.xpath(xpath)
        if found:
            text = found[0] if isinstance(found[0], str) else found[0].text_content()
            if text := _SPACE.sub(" ", text).strip():
                return text
    return ""


def _readability(tree: HtmlElement) -> HtmlElement:
    """readability's main content of `tree` (trafilatura's bundled fork), the judge in `main_content`."""
    from trafilatura.external import try_readability

    return try_readability(tree)


def _trafilatura(
    tree: HtmlElement, url: str | None, *, fast: bool = True, favor_precision: bool = False, favor_recall: bool = False
) -> str:
    import trafilatura

    return (
        trafilatura.extract(
            tree,
            url=url,
            output_format="markdown",
            favor_precision=favor_precision,
            favor_recall=favor_recall,
            fast=fast,
            include_tables=True,
            include_formatting=True,
            include_images=False,
            include_comments=False,
            include_links=False,
        )
        or ""
    )


def _tidy(markdown: str) -> str:
    """Underline/superscript tags dropped; a blank line before a table that follows text, so renderers see it."""
    lines = _INLINE_HTML.sub("", markdown).splitlines()
    out: list[str] = []
    for line in lines:
        if line.startswith("|") and out and out[-1].strip() and not out[-1].startswith("|"):
            out.append("")
        out.append(line.rstrip())
    return "\n".join(out).strip()


def _shingles(text: str) -> Counter[tuple[str, ...]]:
    """The multiset of 4-word shingles of `text` (markdown marks are not words)."""
    words = _WORD.findall(_MARKS.sub(" ", text))
    return Counter(tuple(words[i : i + 4]) for i in range(len(words) - 3))


def _similarity(a: Counter[tuple[str, ...]], b: Counter[tuple[str, ...]]) -> float:
    """Dice coefficient of two shingle multisets (1: the same text, 0: nothing in common)."""
    total = a.total() + b.total()
    return 2 * (a & b).total() / total if total else 0.0


def _plain(text: str) -> str:
    return _SPACE.sub(" ", _MARKS.sub("", text)).strip()


def _restore_links(markdown: str, tree: HtmlElement, base_url: str | None) -> str:
    """Wrap anchor texts in `[text](url)` where the anchor's block is part of the extracted content."""
    if not markdown:
        return markdown
    lines = markdown.split("\n")
    plain_lines = [_plain(_LINE_PREFIX.sub("", line)) for line in lines]
    whole = "\n".join(plain_lines)
    block_text: dict[HtmlElement, str] = {}
    cursor = 0
    next_pos = [0] * len(lines)
    for anchor in tree.iter("a"):
        href = (anchor.get("href") or "").strip()
        text = _SPACE.sub(" ", anchor.text_content()).strip()
        if not _linkable(href, text) or text not in markdown:
            continue
        block = _enclosing_block(anchor)
        if block is None:
            continue
        if block not in block_text:
            block_text[block] = _plain(block.text_content())
        if block_text[block] not in whole:
            continue
        line = _find_line(plain_lines, block_text[block], text, cursor)
        if line is None:
            continue
        at = _find_word(lines[line], text, next_pos[line])
        if at < 0:
            continue
        target = urljoin(base_url or "", href).replace(" ", "%20").replace("(", "%28").replace(")", "%29")
        link = f"[{text}]({target})"
        lines[line] = lines[line][:at] + link + lines[line][at + len(text) :]
        next_pos[line] = at + len(link)
        cursor = line
    return "\n".join(lines)


def _linkable(href: str, text: str) -> bool:
    return (
        bool(text) and "]" not in text and "[" not in text and not href.startswith(("#", "javascript:")) and bool(href)
    )


def _enclosing_block(node: HtmlElement) -> HtmlElement | None:
    for ancestor in node.iterancestors():
        if ancestor.tag in _BLOCKS:
            return ancestor
    return None


def _find_line(plain_lines: list[str], block: str, anchor: str, start: int) -> int | None:
    """The first line from `start` that holds the anchor and is its block (or a long part of it).

    A block that is the anchor alone (a menu entry) only matches a line that is that anchor alone,
    so navigation words that also occur in the prose are not linked.
    """
    for i in range(start, len(plain_lines)):
        line = plain_lines[i]
        if anchor not in line:
            continue
        if line == block or (block in line and len(block) > len(anchor)) or (line in block and len(line) >= 40):
            return i
    return None


def _find_word(line: str, text: str, start: int) -> int:
    """Index of `text` in `line` from `start` as whole words, or -1."""
    found = re.compile(rf"(?<!\w){re.escape(text)}(?!\w)").search(line, start)
    return found.start() if found else -1
