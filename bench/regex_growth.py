"""Every regular expression outside promptguard, and the text handling that reads a caller's or a web
page's text: how their time grows with length (bench/promptguard_growth.py does promptguard).

    python bench/regex_growth.py                        # every pattern, then every entry point
    python bench/regex_growth.py --short 25000 --only extract   # entry points named *extract*, to 100,000

The patterns are collected, not listed: every module of shared/ and functions/ (promptguard aside) that
imports `re` is imported, and its compiled globals and the literal patterns of its `re.*` calls are
taken. Each pattern is run (`finditer`, as `sub`, `findall` and a failing `search` scan) over texts of
one repeated unit: its own literal runs and characters, alone and glued to a word or a space, and
generic shapes (a tag, a comment, a glued link, a dotted address). Each text is timed at `--short`
characters and at four times that; linear work grows about four times, so a growth over `--ratio`
(default 6) is printed as SUPERLINEAR. The entry points (the article extractor on a page of one repeated
block, the validators, the e-mail and record parsers...) are timed the same way, within the length
their contract accepts.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import inspect
import json
import re
import sys
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from re import _constants as sre
from re import _parser as sre_parse
from typing import TYPE_CHECKING, Any

from growth import repeated, seconds
from service_env import use_service_environment

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
SKIPPED = ("promptguard", "importer")
"""promptguard has its own growth benchmark; the geo importer reads the GeoNames dump, never a caller."""
GENERIC_UNITS = (
    " ", "a", "a ", "1", "1.", "-", "\n", "\t ", "<a>", "<a", "<!--", "&amp;", "http://a?", "@a.", "a.",
    "((", "[", "\"", "=a", "a=", ";", "*", "```",
)  # fmt: skip
HTML_UNITS = (
    "<p>Some words of a sentence.</p>\n", "<p>text <a href='/x'>a link</a> more</p>", "<a href='/x'>a</a> ",
    "<li><a href='/x'>menu</a></li>", "<div>", "<div><p>", "<table><tr><td>a</td>", "<u>a</u> ", "<h2>a</h2>",
    "<!--", "&amp;", "<a>", "<br>", "<pre>a\n", "<b><i>", "http://a?", "<p>*a* _b_ `c` |d| ",
)  # fmt: skip
GUARDED = {
    "email_service.parsing._COMMENT": "run only up to the last ')' (no comment closes past it)",
    "mcp_platform.search.providers._TAGS": "run only up to the last '>' (no tag closes past it)",
    "mcp_platform.contracts.tts._TAG": "run only on SSML that parsed as XML, whose last '>' ends it",
    "mcp_platform.web.text._META_CHARSET": "run on a page's first 4,096 bytes only (9 ms there at worst)",
}
"""Patterns whose code keeps them off the texts that make them backtrack: their rows are printed apart,
and their entry point is timed on those texts."""
REPRESENTATIVE = {
    sre.CATEGORY_DIGIT: "1", sre.CATEGORY_NOT_DIGIT: "a", sre.CATEGORY_SPACE: " ", sre.CATEGORY_NOT_SPACE: "a",
    sre.CATEGORY_WORD: "a", sre.CATEGORY_NOT_WORD: " ", sre.CATEGORY_LINEBREAK: "\n", sre.CATEGORY_NOT_LINEBREAK: "a",
}  # fmt: skip
REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)
CALLS = {"compile": 1, "search": 2, "match": 2, "fullmatch": 2, "findall": 2, "finditer": 2, "split": 3, "sub": 4}
"""re's pattern functions and the position of their `flags` argument."""


@dataclass(frozen=True)
class Found:
    where: str
    pattern: re.Pattern[Any]


@dataclass(frozen=True)
class Entry:
    """A function that handles outside text, called on one text of a repeated unit."""

    name: str
    call: Callable[[str], object]
    units: tuple[str, ...]
    cap: int | None = None
    """The most characters its contract lets through (None: unbounded, e.g. a fetched page)."""


def code_paths() -> dict[str, Path]:
    """Put the common layer and each function's code on the path; the folder of each importable package."""
    folders = {"mcp_platform": ROOT / "shared" / "mcp_platform"}
    for function in sorted((ROOT / "functions").glob("*/*")):
        if function.name in SKIPPED or not function.is_dir():
            continue
        sys.path.insert(0, str(function))
        folders |= {package.name: package for package in function.iterdir() if (package / "__init__.py").exists()}
    sys.path.insert(0, str(ROOT / "shared"))
    return folders


def modules(folders: dict[str, Path]) -> Iterator[ModuleType]:
    for package, folder in folders.items():
        for path in sorted(folder.rglob("*.py")):
            if any(part in SKIPPED for part in path.parts) or "import re\n" not in path.read_text():
                continue
            yield importlib.import_module(".".join((package, *path.relative_to(folder).with_suffix("").parts)))


def patterns(module: ModuleType) -> Iterator[Found]:
    """Its compiled globals, and each `re.<function>(literal or global string, ...)` of its source."""
    name = module.__name__
    for attribute, value in vars(module).items():
        if isinstance(value, re.Pattern):
            yield Found(f"{name}.{attribute}", value)
    for node in ast.walk(ast.parse(inspect.getsource(module))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args):
            continue
        if not (isinstance(node.func.value, ast.Name) and node.func.value.id == "re" and node.func.attr in CALLS):
            continue
        source = _value(node.args[0], module)
        if not isinstance(source, str | bytes):
            continue  # built at run time (an f-string): its entry point covers it
        position = CALLS[node.func.attr]
        flags = next((k.value for k in node.keywords if k.arg == "flags"), None)
        flags = node.args[position] if flags is None and len(node.args) > position else flags
        yield Found(f"{name}:{node.lineno}", re.compile(source, _value(flags, module) or 0 if flags else 0))


def _value(node: ast.expr, module: ModuleType) -> object:
    try:
        return eval(compile(ast.Expression(node), "<pattern>", "eval"), vars(module))  # our own source
    except Exception:  # a local variable, a subscript of one: not a pattern known at import
        return None


def units_of(pattern: re.Pattern[Any]) -> list[str]:
    """The pattern's literal runs and characters, alone, before a word and after one, then the generic units."""
    runs: set[str] = set()
    chars: set[str] = set()
    _collect(sre_parse.parse(_text(pattern.pattern), pattern.flags), runs, chars)
    found = [*runs, *(run + " " for run in runs), *chars, *(c + "a" for c in chars), *("a" + c for c in chars)]
    return sorted(set(found) | set(GENERIC_UNITS))


def _collect(parsed: Any, runs: set[str], chars: set[str]) -> None:
    run = ""
    for op, argument in parsed:
        if op == sre.LITERAL:
            run += chr(argument)
            chars.add(chr(argument))
            continue
        if len(run) > 1:
            runs.add(run)
        run = ""
        if op == sre.IN:
            chars.update(_members(argument))
        elif op in REPEATS:
            _collect(argument[2], runs, chars)
        elif op == sre.SUBPATTERN:
            _collect(argument[3], runs, chars)
        elif op == sre.BRANCH:
            for branch in argument[1]:
                _collect(branch, runs, chars)
        elif op in (sre.ASSERT, sre.ASSERT_NOT):
            _collect(argument[1], runs, chars)
        elif op == sre.ATOMIC_GROUP:
            _collect(argument, runs, chars)
    if len(run) > 1:
        runs.add(run)


def _members(items: list[tuple[Any, Any]]) -> Iterator[str]:
    """A character of each part of a set: its literals, the low end of its ranges, one of each category."""
    for kind, item in items:
        if kind == sre.LITERAL:
            yield chr(item)
        elif kind == sre.RANGE:
            yield chr(item[0])
        elif kind == sre.CATEGORY:
            yield REPRESENTATIVE.get(item, "a")


def _text(source: str | bytes) -> str:
    return source.decode("latin-1") if isinstance(source, bytes) else source


def scan(pattern: re.Pattern[Any], text: str) -> int:
    subject = text.encode("utf-8") if isinstance(pattern.pattern, bytes) else text
    return sum(1 for _ in pattern.finditer(subject))


def quietly(call: Callable[[str], object]) -> Callable[[str], object]:
    """`call`, with a refusal taken as its answer (pydantic's and the parsers' are ValueErrors)."""
    from mcp_platform.protocol.errors import ToolError

    def run(text: str) -> object:
        try:
            return call(text)
        except (ValueError, ToolError) as exc:
            return exc

    return run


def validator(call: Callable[[Any, None], object], model: Callable[..., object], field: str) -> Callable[[str], object]:
    """A validate tool called on its input model with `field` set to the text."""
    return quietly(lambda text: call(model(**{field: text}), None))


def entries() -> list[Entry]:
    """The public functions that hand outside text to the patterns, with the units that shape their input."""
    from compound_service.parsing import hazard_statement
    from email_service.parsing import auth_results
    from email_service.records import dkim_key, dmarc_record, parse_spf
    from herbal_service.text import fts_query
    from mcp_platform.auth.signup import normalise_email
    from mcp_platform.contracts import validate
    from mcp_platform.contracts.docs import parse_pages
    from mcp_platform.contracts.tts import MAX_SSML, EstimateInput
    from mcp_platform.search.providers import _clean
    from mcp_platform.web.extraction import extract
    from mcp_platform.web.text import decode_body
    from mcp_router.headers import decode_header_value
    from research_service.drafting import BriefDraft, parse_reply
    from research_service.quote_gate import DraftClaim, gate
    from search_service.language import is_hungarian
    from validate_service import banking, card, email_address, json_document, numbers, phone, url, vat

    def ssml(text: str) -> int:
        return EstimateInput(ssml=f"<speak><![CDATA[{text}]]></speak>").characters

    def page(text: str) -> str:
        return f"<html><head><title>T</title></head><body><article>{text}</article></body></html>"

    units = GENERIC_UNITS
    html_units = tuple(dict.fromkeys((*HTML_UNITS, *GENERIC_UNITS)))
    vat_input = partial(validate.VatInput, country="DE")
    return [
        Entry("web.extraction.extract", lambda t: extract(page(t), "https://example.org/a"), html_units),
        Entry("web.text.decode_body (meta)", lambda t: decode_body(t.encode(), None), (*units, "<meta", "<meta ")),
        Entry("web.text.decode_body (header)", lambda t: decode_body(b"", t), (*units, "charset", "charset=")),
        Entry("research.quote_gate.gate", lambda t: gate([DraftClaim("c", t[:600], "u")], {"u": t}), units),
        Entry("research.drafting.parse_reply", lambda t: parse_reply(t, BriefDraft), units),
        Entry("search.language.is_hungarian", is_hungarian, (*units, "és ", "ő")),
        Entry("search.providers._clean", _clean, units),
        Entry("contracts.tts.EstimateInput (SSML)", quietly(ssml), (*units, "<", "<a"), cap=MAX_SSML - 40),
        Entry("email.parsing.auth_results", lambda t: auth_results("mx.example; spf=pass " + t), (*units, "a.a", "(")),
        Entry("email.records.parse_spf", lambda t: parse_spf("v=spf1 " + t), (*units, "a:", "+a=b ")),
        Entry("email.records.dmarc_record", lambda t: dmarc_record(["v=DMARC1; " + t]), (*units, "p=", "; ")),
        Entry("email.records.dkim_key", lambda t: dkim_key("s", ["v=DKIM1; " + t]), (*units, "p=", "; ")),
        Entry("compound.parsing.hazard_statement", lambda t: hazard_statement("H300: a" + t), (*units, " [")),
        Entry("herbal.text.fts_query", fts_query, units, cap=200),
        Entry("router.headers.decode_header_value", lambda t: decode_header_value(f"=?base64?{t}?="), units, 8192),
        Entry("auth.signup.normalise_email", quietly(normalise_email), units, cap=254),
        Entry("contracts.docs.parse_pages", quietly(parse_pages), (*units, "1-2,", "1 , "), cap=200),
        Entry("validate.email", validator(email_address.validate_email, validate.EmailInput, "email"), units, 320),
        Entry("validate.phone", validator(phone.validate_phone, validate.PhoneInput, "number"), units, 64),
        Entry("validate.url", validator(url.validate_url, validate.UrlInput, "url"), units, 8192),
        Entry("validate.card", validator(card.validate_card, validate.CardInput, "number"), units, 40),
        Entry("validate.iban", validator(banking.validate_iban, validate.IbanInput, "iban"), units, 64),
        Entry("validate.bic", validator(banking.validate_bic, validate.BicInput, "bic"), units, 32),
        Entry("validate.vat", validator(vat.validate_vat, vat_input, "number"), units, 32),
        Entry(
            "validate.number (every kind)",
            lambda t: [
                validator(numbers.validate_number, partial(validate.NumberInput, kind=kind), "number")(t)
                for kind in validate.KINDS
            ],
            units,
            cap=256,
        ),
        *(
            Entry(
                f"validate.json (caller pattern {pattern})",
                quietly(
                    lambda t, pattern=pattern: json_document.validate_json(
                        validate.JsonInput(document=t + "!", schema={"type": "string", "pattern": pattern}), None
                    )
                ),
                ("a", "ab"),
            )
            # On a's and a '!' the second backtracks without end: its search is stopped at PATTERN_SEARCH_MS.
            for pattern in ("a*b", "^(a|a)+$")
        ),
        Entry(
            "validate.json (document text)",
            lambda t: json_document.validate_json(
                validate.JsonInput(document=json.dumps(t), schema={"type": "string"}, parse_text=True), None
            ),
            units,
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--short", type=int, default=2_000, help="characters of the shorter text")
    parser.add_argument("--ratio", type=float, default=6.0, help="growth (x4 length) reported as superlinear")
    parser.add_argument("--only", default="", help="only patterns and entry points whose name contains this")
    args = parser.parse_args()
    folders = code_paths()
    use_service_environment("validate", "email", "research", "search", "herbal")
    found: list[tuple[float, float, float, str, str]] = []
    collected: dict[tuple[object, int], Found] = {}
    for item in (f for module in modules(folders) for f in patterns(module)):
        collected.setdefault((item.pattern.pattern, item.pattern.flags), item)  # a global's name over a line
    timed = [f for f in collected.values() if args.only in f.where]
    for item in timed:
        for unit in units_of(item.pattern):
            found.extend(_grow(lambda t, item=item: scan(item.pattern, t), item.where, unit, args.short, None))
    calls = [e for e in entries() if args.only in e.name]
    for entry in calls:
        for unit in entry.units:
            found.extend(_grow(entry.call, entry.name, unit, args.short, entry.cap))
    superlinear = [f for f in found if f[2] > args.ratio and f[1] > 0.02 and f[3] not in GUARDED]
    guarded = [f for f in found if f[2] > args.ratio and f[1] > 0.02 and f[3] in GUARDED]
    print(f"{len(timed)} patterns and {len(calls)} entry points, {len(found)} texts timed at x and 4x characters")
    print(f"{'at x':>12} {'at 4x':>12} {'growth':>7}  {'where':<44} unit x characters")
    for row in sorted(found, key=lambda f: f[1], reverse=True)[:12]:
        _print(row)
    print(f"superlinear (growth > {args.ratio:g}x, > 20 ms): {len(superlinear)}")
    for row in superlinear:
        _print(row, "SUPERLINEAR ")
    for where in sorted({row[3] for row in guarded}):
        print(f"  guarded, superlinear alone: {where}: {GUARDED[where]}")


def _grow(
    call: Callable[[str], object], where: str, unit: str, short: int, cap: int | None
) -> list[tuple[float, float, float, str, str]]:
    """[(short seconds, long seconds, growth, where, unit)], or [] when too fast to measure a growth."""
    short = min(short, cap // 4) if cap else short
    try:
        short_s = seconds(lambda: call(repeated(unit, short)))
        if short_s < 0.0015:
            return []
        long_s = seconds(lambda: call(repeated(unit, 4 * short)))
    except Exception as exc:  # a crash is a finding too; the other texts still run
        print(f"ERROR {where} {unit!r} x {short} (or 4x): {type(exc).__name__}: {str(exc)[:80]}")
        return []
    return [(short_s, long_s, long_s / short_s, where, f"{unit!r} x {short}")]


def _print(row: tuple[float, float, float, str, str], prefix: str = "") -> None:
    short_s, long_s, growth, where, unit = row
    print(f"{prefix}{short_s * 1000:>9.1f} ms {long_s * 1000:>9.1f} ms {growth:>6.1f}x  {where:<44} {unit}")


if __name__ == "__main__":
    main()
