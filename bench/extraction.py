"""Article extraction benchmark: the platform's extractor next to readability-lxml and trafilatura.

Runs each extractor on the pages of `shared/bench-data/article-extraction/` (91 pages with a
human-annotated article body) and prints F1, precision, recall and the median milliseconds per
page. The metric is the benchmark's own, as its README states it:

* tokens are the matches of `\\w+` (Unicode); a text is the multiset of its 4-token shingles;
* per page TP/FP/FN are the multiset overlaps, normalised so that the three sum to 1;
* precision and recall are averaged over pages (pages with no predicted shingles are left out of
  precision, pages with no true shingles out of recall); F1 is the harmonic mean of the averages;
* the plain text of the extracted content is scored: link targets, image URLs and markdown
  marks are dropped before tokenising (`markdown_to_text`).

Usage: `python bench/extraction.py [--data DIR] [--only NAME ...] [--per-page]`
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "shared"))

from typing import TYPE_CHECKING

from mcp_platform.web.extraction import EXTRACTOR, extract, extractor_version
from mcp_platform.web.text import decode_body

if TYPE_CHECKING:
    from collections.abc import Callable

DEFAULT_DATA = ROOT.parent / "shared" / "bench-data" / "article-extraction"
_TOKEN = re.compile(r"\w+")
SHINGLE = 4


# ---------------------------------------------------------------- metric
def shingles(text: str) -> Counter[tuple[str, ...]]:
    """The multiset of 4-token shingles of `text` (a text of fewer than 4 tokens has none)."""
    tokens = _TOKEN.findall(text)
    return Counter(tuple(tokens[i : i + SHINGLE]) for i in range(len(tokens) - SHINGLE + 1))


def page_counts(true: str, pred: str) -> tuple[float, float, float]:
    """(TP, FP, FN) of one page as multiset overlaps of shingles, normalised to sum to 1."""
    t, p = shingles(true), shingles(pred)
    tp = sum((t & p).values())
    fp = sum((p - t).values())
    fn = sum((t - p).values())
    total = tp + fp + fn
    if total == 0:
        return 0.0, 0.0, 0.0
    return tp / total, fp / total, fn / total


def score(pairs: list[tuple[str, str]]) -> tuple[float, float, float]:
    """(F1, precision, recall) over pages of (true, predicted) texts."""
    precisions, recalls = [], []
    for true, pred in pairs:
        tp, fp, fn = page_counts(true, pred)
        if shingles(pred):
            precisions.append(tp / (tp + fp))
        if shingles(true):
            recalls.append(tp / (tp + fn))
    precision = statistics.fmean(precisions) if precisions else 0.0
    recall = statistics.fmean(recalls) if recalls else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return f1, precision, recall


_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_FENCE = re.compile(r"^\s*(```|~~~)[^\n]*$", re.MULTILINE)
_MARKS = re.compile(r"(?<!\w)[*_]{1,3}|[*_]{1,3}(?!\w)|`+|^\s{0,3}(#{1,6}|>+|[-*+]|\d+\.)\s", re.MULTILINE)


def markdown_to_text(markdown: str) -> str:
    """Plain text of markdown: image URLs and link targets dropped, emphasis/heading/list/code marks removed."""
    text = _IMAGE.sub(r"\1", markdown)
    text = _LINK.sub(r"\1", text)
    text = _FENCE.sub("", text)
    return _MARKS.sub(" ", text)


# ---------------------------------------------------------------- extractors
def _ours(html: str, url: str) -> str:
    return markdown_to_text(extract(html, url).markdown)


def _readability(html: str, url: str) -> str:
    from lxml import html as lxml_html
    from readability import Document

    summary = Document(html, url=url).summary(html_partial=True)
    return lxml_html.fromstring(summary).text_content() if summary.strip() else ""


def _trafilatura(html: str, url: str) -> str:
    import trafilatura

    return trafilatura.extract(html, url=url) or ""


EXTRACTORS: dict[str, Callable[[str, str], str]] = {
    "ours": _ours,
    "readability-lxml": _readability,
    "trafilatura": _trafilatura,
}


# ---------------------------------------------------------------- runner
@dataclass
class Result:
    name: str
    f1: float
    precision: float
    recall: float
    median_ms: float
    per_page: list[tuple[str, float, float]]


def load_pages(data: Path) -> list[tuple[str, str, str, str]]:
    """(key, url, html, true article body) for every page of the benchmark."""
    truth = json.loads((data / "ground-truth.json").read_text())
    pages = []
    for key, item in sorted(truth.items()):
        raw = gzip.decompress((data / "html" / f"{key}.html.gz").read_bytes())
        pages.append((key, item["url"], decode_body(raw, None), item["articleBody"]))
    return pages


def run(name: str, fn: Callable[[str, str], str], pages: list[tuple[str, str, str, str]]) -> Result:
    fn(pages[0][2], pages[0][1])  # warm-up: imports and lazy initialisation are not per-page cost
    pairs, times, per_page = [], [], []
    for key, url, html, true in pages:
        start = time.perf_counter()
        pred = fn(html, url)
        times.append((time.perf_counter() - start) * 1000)
        pairs.append((true, pred))
        f1, _, _ = score([(true, pred)])
        per_page.append((key, f1, times[-1]))
    f1, precision, recall = score(pairs)
    return Result(name, f1, precision, recall, statistics.median(times), per_page)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--only", nargs="*", choices=sorted(EXTRACTORS))
    parser.add_argument("--per-page", action="store_true", help="also print each page's F1 and time")
    args = parser.parse_args(argv)
    pages = load_pages(args.data)
    print(f"{len(pages)} pages; ours = {EXTRACTOR}, trafilatura {extractor_version()}")
    print(f"{'extractor':<18} {'F1':>6} {'prec':>6} {'recall':>6} {'median ms':>10}")
    for name in args.only or EXTRACTORS:
        result = run(name, EXTRACTORS[name], pages)
        print(f"{name:<18} {result.f1:6.3f} {result.precision:6.3f} {result.recall:6.3f} {result.median_ms:10.1f}")
        if args.per_page:
            for key, f1, ms in sorted(result.per_page, key=lambda row: row[1]):
                print(f"    {key[:16]} F1 {f1:.3f} {ms:7.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
