"""validate_*: verdicts, normalised forms and reasons; bad arguments are errors naming the field."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from mcp_platform.contracts.validate import PATTERN_SEARCH_MS
from validate_service import schema_patterns
from validate_service.app import app


def call(tool: str, **arguments: Any) -> dict[str, Any]:
    reply = app.handle({"tool": tool, "arguments": arguments, "account_id": "acct", "request_id": "r1"})
    return reply.structured_content


def error_of(tool: str, **arguments: Any) -> str:
    out = call(tool, **arguments)
    assert out.get("is_error") is True, out
    assert out["code"] == "invalid_arguments", out
    return out["error"]


# ---------------------------------------------------------------- email (syntax; DNS is in test_validate_email.py)


def test_email_normalises_and_reports_parts(validate_output) -> None:
    out = validate_output("validate_email", call("validate_email", email="Anna.Kovacs@Bücher.Example"))
    assert out["valid"] is True
    assert out["normalized"] == "Anna.Kovacs@bücher.example"
    assert out["ascii_email"] == "Anna.Kovacs@xn--bcher-kva.example"
    assert out["deliverability"] == "not_checked"
    assert "reason" not in out


def test_bad_email_is_a_verdict_with_a_reason(validate_output) -> None:
    out = validate_output("validate_email", call("validate_email", email="anna@@example.com"))
    assert out["valid"] is False
    assert "@" in out["reason"]
    assert "normalized" not in out


def test_email_argument_errors_name_the_field() -> None:
    assert "email" in error_of("validate_email", email="")
    assert "check_deliverability" in error_of("validate_email", email="a@b.c", check_deliverability="maybe")


# ---------------------------------------------------------------- phone


def test_phone_gives_e164_type_and_region(validate_output) -> None:
    out = validate_output("validate_phone", call("validate_phone", number="06 30 123 4567", region="hu"))
    assert out["valid"] is True
    assert (out["e164"], out["type"], out["region"], out["country_code"]) == ("+36301234567", "mobile", "HU", 36)
    fixed = call("validate_phone", number="+36 1 234 5678")
    assert (fixed["e164"], fixed["type"]) == ("+3612345678", "fixed_line")


@pytest.mark.parametrize(
    ("number", "region", "reason"),
    [
        ("1234567", None, "start with + or give `region`"),
        ("+36 1 234", None, "too short"),
        ("+1 555 0100 999 999 999", None, "too long"),
    ],
)
def test_invalid_phone_says_why(validate_output, number: str, region: str | None, reason: str) -> None:
    out = validate_output("validate_phone", call("validate_phone", number=number, region=region))
    assert out["valid"] is False
    assert reason in out["reason"]


def test_phone_region_must_be_two_letters() -> None:
    assert "region" in error_of("validate_phone", number="123", region="HUN")


# ---------------------------------------------------------------- iban / bic


def test_iban_formatted_with_country_and_bank(validate_output) -> None:
    out = validate_output("validate_iban", call("validate_iban", iban="de89 3704 0044 0532 0130 00"))
    assert out["valid"] is True
    assert out["formatted"] == "DE89 3704 0044 0532 0130 00"
    assert (out["iban"], out["country_code"], out["bank_code"]) == ("DE89370400440532013000", "DE", "37040044")
    assert out["bic"] == "COBADEFFXXX"


@pytest.mark.parametrize(
    ("iban", "reason"),
    [
        ("DE89 3704 0044 0532 0130 01", "checksum"),
        ("DE89 3704 0044 0532 0130 0", "length"),
        ("XX12 3456", "country"),
    ],
)
def test_invalid_iban_reason(validate_output, iban: str, reason: str) -> None:
    out = validate_output("validate_iban", call("validate_iban", iban=iban))
    assert out["valid"] is False
    assert reason in out["reason"].lower()


def test_bic_parts_and_registry(validate_output) -> None:
    out = validate_output("validate_bic", call("validate_bic", bic="COBADEFFXXX"))
    assert (out["bank_code"], out["country_code"], out["location_code"], out["branch_code"]) == (
        "COBA",
        "DE",
        "FF",
        "XXX",
    )
    assert out["registered"] is True
    bad = validate_output("validate_bic", call("validate_bic", bic="COBAXXFF"))
    assert bad["valid"] is False
    assert "country" in bad["reason"].lower()


def test_iban_and_bic_arguments_are_bounded() -> None:
    assert "iban" in error_of("validate_iban", iban="D" * 65)
    assert "bic" in error_of("validate_bic")


# ---------------------------------------------------------------- vat (offline; VIES is in tests/integration)


def test_vat_offline_with_and_without_prefix(validate_output) -> None:
    out = validate_output("validate_vat", call("validate_vat", number="DE 136 695 976"))
    assert (out["valid"], out["vat"], out["country_code"]) == (True, "DE136695976", "DE")
    assert "live" not in out
    bare = call("validate_vat", number="136695976", country="de")
    assert bare["vat"] == "DE136695976"
    greek = call("validate_vat", number="094259216", country="GR")
    assert (greek["valid"], greek["vat"]) == (True, "EL094259216")


def test_vat_invalid_check_digit_and_foreign_prefix(validate_output) -> None:
    out = validate_output("validate_vat", call("validate_vat", number="DE136695975"))
    assert out["valid"] is False
    assert "check digit" in out["reason"]
    foreign = validate_output("validate_vat", call("validate_vat", number="US123456789"))
    assert "'US' is not an EU VAT prefix" in foreign["reason"]


def test_vat_country_must_agree_or_be_given() -> None:
    assert error_of("validate_vat", number="DE136695976", country="FR").startswith("country:")
    assert error_of("validate_vat", number="136695976").startswith("country:")
    assert "country" in error_of("validate_vat", number="1", country="DEU")


# ---------------------------------------------------------------- card


@pytest.mark.parametrize(
    ("number", "brand"),
    [
        ("4111 1111 1111 1111", "visa"),
        ("5555-5555-5555-4444", "mastercard"),
        ("2223 0031 2200 3222", "mastercard"),
        ("3782 822463 10005", "amex"),
        ("6011 1111 1111 1117", "discover"),
        ("3530 1113 3330 0000", "jcb"),
        ("3056 9309 0259 04", "diners"),
        ("6200 0000 0000 0005", "unionpay"),
    ],
)
def test_card_brand_and_mask(validate_output, number: str, brand: str) -> None:
    out = validate_output("validate_card", call("validate_card", number=number))
    digits = number.replace(" ", "").replace("-", "")
    assert (out["valid"], out["luhn_valid"], out["brand"], out["length"]) == (True, True, brand, len(digits))
    assert out["masked"] == "*" * (len(digits) - 4) + digits[-4:]
    assert digits not in str(out)


@pytest.mark.parametrize(
    ("number", "reason"),
    [
        ("4111 1111 1111 1112", "Luhn"),
        ("3782 8224 6310 0052", "amex numbers have 15 digits"),
        ("4111-11x1", "only digits"),
        ("0000 0000", "8 digits"),
    ],
)
def test_invalid_card_reasons(validate_output, number: str, reason: str) -> None:
    out = validate_output("validate_card", call("validate_card", number=number))
    assert out["valid"] is False
    assert reason in out["reason"]


# ---------------------------------------------------------------- url


def test_url_parts_and_idna(validate_output) -> None:
    out = validate_output("validate_url", call("validate_url", url=" https://user@Bücher.example:8443/a b?x=1#top "))
    assert out["valid"] is True
    assert out["normalized"] == "https://user@xn--bcher-kva.example:8443/a%20b?x=1#top"
    assert (out["host"], out["host_unicode"], out["port"]) == ("xn--bcher-kva.example", "bücher.example", 8443)
    assert (out["path"], out["query"], out["fragment"], out["has_credentials"]) == ("/a%20b", "x=1", "top", True)


@pytest.mark.parametrize(
    ("url", "schemes", "reason"),
    [
        ("example.com/page", None, "relative URL without a base"),
        ("https://a..b/", None, "not a valid domain name"),
        ("http://999.1.1.1/", None, "invalid IPv4"),
        ("ftp://files.example/x", None, "scheme 'ftp' is not one of"),
        ("mailto:anna@example.com", ["mailto"], None),
    ],
)
def test_url_verdicts(validate_output, url: str, schemes: list[str] | None, reason: str | None) -> None:
    arguments: dict[str, Any] = {"url": url} | ({"allowed_schemes": schemes} if schemes else {})
    out = validate_output("validate_url", call("validate_url", **arguments))
    assert out["valid"] is (reason is None)
    if reason:
        assert reason in out["reason"]


def test_url_schemes_must_be_a_list() -> None:
    assert "allowed_schemes" in error_of("validate_url", url="https://a.b", allowed_schemes=[])


# ---------------------------------------------------------------- json

SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "tags": {"type": "array", "items": {"type": "integer"}},
        "a/b": {"$ref": "#/$defs/positive"},
        "email": {"type": "string", "format": "email"},
    },
    "required": ["name"],
    "$defs": {"positive": {"type": "number", "exclusiveMinimum": 0}},
}


def test_json_valid_document(validate_output) -> None:
    out = validate_output("validate_json", call("validate_json", document={"name": "x", "tags": [1]}, schema=SCHEMA))
    assert (out["valid"], out["error_count"], out["errors"]) == (True, 0, [])
    assert out["draft"] == "https://json-schema.org/draft/2020-12/schema"


def test_json_errors_have_pointer_paths(validate_output) -> None:
    document = {"tags": [1, "two"], "a/b": -1}
    out = validate_output("validate_json", call("validate_json", document=document, schema=SCHEMA))
    assert out["valid"] is False
    got = {(e["path"], e["keyword"]) for e in out["errors"]}
    assert got == {("", "required"), ("/tags/1", "type"), ("/a~1b", "exclusiveMinimum")}
    assert {e["schema_path"] for e in out["errors"]} >= {"/properties/tags/items/type", "/required"}
    assert out["reason"] == "(root): 'name' is a required property"


def test_json_formats_are_asserted_only_on_request() -> None:
    document = {"name": "x", "email": "not-an-email"}
    assert call("validate_json", document=document, schema=SCHEMA)["valid"] is True
    strict = call("validate_json", document=document, schema=SCHEMA, check_formats=True)
    assert [e["path"] for e in strict["errors"]] == ["/email"]


def test_json_text_is_parsed_on_request(validate_output) -> None:
    ok = call("validate_json", document='{"name": "x"}', schema=SCHEMA, parse_text=True)
    assert ok["valid"] is True
    broken = validate_output(
        "validate_json", call("validate_json", document='{"name": ', schema=SCHEMA, parse_text=True)
    )
    assert broken["valid"] is False
    assert broken["reason"].startswith("not JSON:")


def test_json_many_errors_are_capped(validate_output) -> None:
    out = validate_output(
        "validate_json", call("validate_json", document=list(range(60)), schema={"items": {"type": "string"}})
    )
    assert (out["error_count"], len(out["errors"]), out["truncated"]) == (60, 50, True)


def test_json_schema_problems_name_schema() -> None:
    assert error_of("validate_json", document={}, schema={"type": "wrong"}).startswith(
        "schema: not a valid JSON Schema"
    )
    assert "cannot resolve $ref" in error_of(
        "validate_json", document={}, schema={"$ref": "https://example.com/s.json"}
    )
    assert error_of("validate_json", document={}, schema={}, parse_text=True).startswith("document:")
    assert "schema" in error_of("validate_json", document={})


def _nested(key: str | None, depth: int) -> Any:
    """`depth` levels of one-element arrays (key None) or of {key: ...}."""
    value: Any = {} if key else []
    for _ in range(depth):
        value = {key: value} if key else [value]
    return value


def test_json_nested_too_deeply_is_an_error_naming_the_part() -> None:
    assert error_of("validate_json", document="[" * 25_000, schema={}, parse_text=True).startswith(
        "document: JSON nested too deeply to parse"
    )
    deep_text = json.dumps(_nested(None, 600))  # parses; validating it under a recursive schema goes deeper
    for document, schema, parse_text in [(deep_text, {"items": {"$ref": "#"}}, True), (1, {"$ref": "#"}, False)]:
        message = error_of("validate_json", document=document, schema=schema, parse_text=parse_text)
        assert message.startswith("document and schema: validation went too deep"), message
    message = error_of("validate_json", document=[], schema=_nested("items", 400))
    assert message.startswith("schema: nested too deeply to check"), message
    # A JSON value past pydantic's limit (the loc it reports is one step per level: kept to the field).
    assert error_of("validate_json", document=_nested(None, 300), schema={}) == (
        "invalid arguments for validate_json: document: nested too deeply (at most about 250 levels)"
    )


BACKTRACKS = "^(a|a)+$"
"""Tries 2^n ways on n a's before a '!': on forty, Python's re would run for days; these calls end because the
search is stopped."""
SLOW = "a" * 40 + "!"
DRAFT_2019 = "https://json-schema.org/draft/2019-09/schema"


@pytest.mark.parametrize(
    ("schema", "document"),
    [
        ({"pattern": BACKTRACKS}, SLOW),
        ({"propertyNames": {"pattern": BACKTRACKS}}, {SLOW: 1}),
        ({"patternProperties": {BACKTRACKS: True}}, {SLOW: 1}),
        # Keywords that search patternProperties themselves, placed first so that they are the ones that meet it.
        ({"additionalProperties": False, "patternProperties": {BACKTRACKS: True}}, {SLOW: 1}),
        ({"unevaluatedProperties": False, "patternProperties": {BACKTRACKS: True}}, {SLOW: 1}),
        ({"$schema": DRAFT_2019, "unevaluatedProperties": False, "patternProperties": {BACKTRACKS: True}}, {SLOW: 1}),
    ],
)
def test_json_pattern_that_backtracks_is_stopped_and_named(schema: dict[str, Any], document: Any) -> None:
    message = error_of("validate_json", document=document, schema=schema)
    assert message.startswith(f"schema: pattern {BACKTRACKS!r} did not finish on 'aaaa"), message
    assert f"{PATTERN_SEARCH_MS} ms" in message


def test_json_patterns_of_a_call_share_one_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(schema_patterns, "PATTERN_CALL_MS", 0)
    message = error_of("validate_json", document="a", schema={"pattern": "a"})
    assert message.startswith("schema: pattern 'a' did not finish on 'a'"), message


def test_json_patterns_are_compiled_and_run_by_one_engine() -> None:
    assert call("validate_json", document="é", schema={"pattern": r"^\p{L}$"})["valid"] is True
    assert call("validate_json", document=r"\p{L}", schema={"format": "regex"}, check_formats=True)["valid"] is True
    assert call("validate_json", document="([", schema={"format": "regex"}, check_formats=True)["valid"] is False
    # Draft 4's metaschema leaves patternProperties names unchecked: the search reports a bad one.
    draft4 = {"$schema": "http://json-schema.org/draft-04/schema#", "patternProperties": {"([": {}}}
    assert "'([' is not a 'regex'" in error_of("validate_json", document={"x": 1}, schema=draft4)
    # additionalProperties joins the patterns with '|': an inline flag then sits mid-pattern, which re refuses.
    flagged = {"patternProperties": {"a": {}, "(?i)b": {}}, "additionalProperties": False}
    assert call("validate_json", document={"B": 1}, schema=flagged)["valid"] is True


def test_jsonschema_searches_patterns_only_where_they_are_guarded() -> None:
    """Every `re.<name>` in jsonschema: a new search elsewhere, or another re function, would bypass the timeout."""
    uses = {}
    for path in Path(jsonschema.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text())
        names = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and _is_re(n.value)}
        uses[path.stem] = names
    searching = {module.__name__.rsplit(".", 1)[1] for module in schema_patterns.SEARCHING_MODULES}
    assert {name for name, used in uses.items() if used} == searching | {"_format", "exceptions"}
    assert all(uses[name] == {"search"} for name in searching)
    assert uses["_format"] == {"compile", "error", "ASCII"}  # its own date pattern, and the regex format we replace
    assert uses["exceptions"] == {"compile"}  # its own pattern for JSON paths


def _is_re(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "re"


# ---------------------------------------------------------------- number


@pytest.mark.parametrize(
    ("kind", "number", "compact", "formatted"),
    [
        ("isbn", "978-0-306-40615-7", "9780306406157", "978-0-306-40615-7"),
        ("issn", "0378-5955", "03785955", "0378-5955"),
        ("ean", "4006381333931", "4006381333931", None),
        ("isin", "US0378331005", "US0378331005", None),
        ("lei", "5493001KJTIIGC8Y1R12", "5493001KJTIIGC8Y1R12", None),
    ],
)
def test_number_kinds(validate_output, kind: str, number: str, compact: str, formatted: str | None) -> None:
    out = validate_output("validate_number", call("validate_number", number=number, kind=kind))
    assert (out["valid"], out["kind"], out["compact"]) == (True, kind, compact)
    assert out.get("formatted") == formatted
    assert out["name"]


def test_number_invalid_checksum(validate_output) -> None:
    out = validate_output("validate_number", call("validate_number", number="978-0-306-40615-8", kind="isbn"))
    assert out["valid"] is False
    assert "check digit" in out["reason"]


def test_number_kind_is_an_enum() -> None:
    assert error_of("validate_number", number="1", kind="isbn13").startswith(
        "invalid arguments for validate_number: kind:"
    )


# ---------------------------------------------------------------- status


def test_status_is_free_and_reports_versions(validate_output, registry) -> None:
    out = validate_output("validate_status", call("validate_status"))
    assert out["number_kinds"] == len(registry.get("validate_number").input_schema["properties"]["kind"]["enum"])
    assert set(out["libraries"]) >= {
        "python-stdnum",
        "phonenumbers",
        "schwifty",
        "email-validator",
        "jsonschema",
        "regex",
    }
    assert registry.get("validate_status").price == 0
    assert "extra: Extra inputs are not permitted" in error_of("validate_status", extra=1)


def test_prices(registry) -> None:
    prices = {spec.name: spec.price for spec in registry.for_service("validate")}
    assert prices == {name: 0 if name == "validate_status" else 1 for name in prices}
    assert len(prices) == 10
