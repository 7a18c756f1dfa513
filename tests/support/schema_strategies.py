"""Hypothesis strategies for tool arguments: schema-valid ones from a published inputSchema, and broken ones.

`valid_arguments(schema)` is hypothesis-jsonschema's `from_schema` (with a fallback for a schema it
cannot handle); `invalid_arguments(schema)` takes a valid object and breaks it: a wrong type, a
required key missing, an unknown key, a 100k-character string, deep nesting, unicode edge cases.

hypothesis-jsonschema 0.23.1 (the newest release) draws objects with Hypothesis's private
`many(...).more()`; the Hypothesis the project pins (6.170) no longer has `more()` (its `many` is a
context-manager iterator now), so every object schema failed with AttributeError. `_LegacyMany` gives
that one module the old interface, built on `ConjectureData.draw_boolean`; drop it once a release of
hypothesis-jsonschema supports the new API.
"""

from __future__ import annotations

import base64
import io
import json
import struct
import types
import wave
import zlib
from typing import TYPE_CHECKING, Any

from hypothesis import strategies as st
from hypothesis.internal.conjecture import utils as cu
from hypothesis_jsonschema import _from_schema, from_schema
from jsonschema import Draft202012Validator

if TYPE_CHECKING:
    from hypothesis.internal.conjecture.data import ConjectureData


class _LegacyMany:
    """Hypothesis's old `many` interface: `while elements.more(): ... elements.reject()`."""

    def __init__(self, data: ConjectureData, min_size: int, max_size: float, average_size: float) -> None:
        self.data = data
        self.min_size, self.max_size = min_size, max_size
        self.p_continue = cu._calc_p_continue(average_size - min_size, max_size - min_size)
        self.count = self.rejections = 0
        self.force_stop = False

    def more(self) -> bool:
        if self.min_size == self.max_size:
            going_on = self.count < self.min_size
        else:
            forced = None
            if self.force_stop or self.count >= self.max_size:
                forced = False
            elif self.count < self.min_size:
                forced = True
            going_on = self.data.draw_boolean(self.p_continue, forced=forced)
        if going_on:
            self.count += 1
        return going_on

    def reject(self, why: str | None = None) -> None:
        self.count -= 1
        self.rejections += 1
        if self.rejections > max(3, 2 * self.count):
            if self.count < self.min_size:
                self.data.mark_invalid(why)
            self.force_stop = True


if not hasattr(cu.many, "more"):
    _from_schema.cu = types.SimpleNamespace(**{**vars(cu), "many": _LegacyMany})  # type: ignore[attr-defined]


RAW_MARK = "\x00raw-json\x00"
"""Key under which `invalid_arguments` puts `(property, raw JSON text)`: nesting too deep for any encoder,
for the caller to splice into the request body as text."""

UNICODE_EDGES = (
    "\x00",  # NUL
    "\u200f",  # right-to-left mark
    "\u202e",  # right-to-left override
    "\u200b",  # zero-width space
    "\ufeff",  # byte order mark
    "\uffff",  # a noncharacter
    "\U0010fffd",  # the last private-use code point
    "\U0001f469\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466",  # a family: emoji joined by ZWJ
    "\U0001f1fa\U0001f1f3",  # a flag: two regional indicators
    "e\u0301\u0301\u0301",  # stacked combining marks
    "\r\n\t",
    "%00",
    "'\"<>&;--",
    "../../etc/passwd",
    "${jndi:x}",
)

_unicode_text = st.lists(st.one_of(st.sampled_from(UNICODE_EDGES), st.text(max_size=4)), min_size=1, max_size=8).map(
    "".join
)
_HUGE = 100_000
_huge_strings = st.sampled_from(
    [
        "a" * _HUGE,
        "\u202e" * _HUGE,
        "\U0001f469\u200d\U0001f469\u200d\U0001f467" * (_HUGE // 5),
        ("word " * (_HUGE // 5)).strip(),
        "\x00" * _HUGE,
    ]
)
_json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**80), max_value=2**80),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
)
_json_values = st.recursive(
    _json_scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)),
    max_leaves=6,
)


def _fallback(schema: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """For a schema hypothesis-jsonschema refuses: each property any JSON value, required ones present."""
    properties = schema.get("properties", {})
    required = [k for k in schema.get("required", []) if k in properties]
    optional = [k for k in properties if k not in required]
    return st.fixed_dictionaries(dict.fromkeys(required, _json_values), optional=dict.fromkeys(optional, _json_values))


def _png() -> bytes:
    """A 2x2 RGB PNG, written by hand (no imaging library in the tests' imports)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\x00" + b"\xff\x00\x00\x00\xff\x00" for _ in range(2))
    header = struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def _wav() -> bytes:
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(8000)
        w.writeframes(b"\x00\x10" * 800)
    return out.getvalue()


_PDF = (
    b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n"
    b"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"
)
WAV = _wav()
"""A WAV file: a tenth of a second of mono 16-bit 8 kHz audio."""
FILES = (_png(), WAV, _PDF, b"GIF89a", b"\x00" * 64, b"plain text, not a file")
"""Small real files and non-files for the tools that take one (as base64, the way a caller sends a file)."""


@st.composite
def _file_bytes(draw: st.DrawFn) -> bytes:
    """A file of `FILES` as it is, cut short, or with one byte changed."""
    data = draw(st.sampled_from(FILES))
    how = draw(st.sampled_from(["whole", "cut", "flip"]))
    at = draw(st.integers(min_value=0, max_value=len(data) - 1))
    if how == "cut":
        return data[:at]
    if how == "flip":
        return data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1 :]
    return data


_file_values = _file_bytes().map(lambda b: base64.b64encode(b).decode() or "AA==")


def _takes_a_file(name: str, node: dict[str, Any]) -> bool:
    return node.get("type") == "string" and (
        name == "content_base64" or "the file itself as base64" in node.get("description", "")
    )


def valid_arguments(schema: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Objects `schema` accepts (hypothesis-jsonschema), or `_fallback` where it cannot build a strategy.

    A string property that takes a file gets, half the time, a small real (or damaged) file as base64:
    random text would only ever be refused as not a file, and the decoders behind it never run.
    """
    strategy: st.SearchStrategy[dict[str, Any]] = from_schema(schema)
    try:
        strategy.validate()
    except Exception:  # the library refuses some keywords or combinations outright
        strategy = _fallback(schema)
    files = {k: v for k, v in schema.get("properties", {}).items() if _takes_a_file(k, v)}
    if not files:
        return strategy
    swaps = st.fixed_dictionaries({}, optional=dict.fromkeys(files, _file_values))
    return st.tuples(strategy, swaps).map(lambda pair: {**pair[0], **pair[1]})


def _deep(depth: int, kind: str) -> str:
    return "[" * depth + "]" * depth if kind == "list" else '{"a":' * depth + "1" + "}" * depth


def invalid_arguments(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """A valid object broken one way, or arguments that are not an object at all."""
    properties: dict[str, Any] = schema.get("properties", {})
    required = list(schema.get("required", []))
    names = sorted(properties) or ["value"]
    strings = sorted(k for k, v in properties.items() if "string" in json.dumps(v.get("type", v.get("anyOf", ""))))
    base = valid_arguments(schema)

    @st.composite
    def broken(draw: st.DrawFn) -> Any:
        args = dict(draw(base))
        how = draw(st.sampled_from(["wrong_type", "missing", "extra", "huge", "deep", "unicode", "not_object"]))
        key = draw(st.sampled_from(names))
        if how == "wrong_type":
            validator = Draft202012Validator(properties.get(key, {}))
            args[key] = draw(_json_values.filter(lambda v: not validator.is_valid(v)) | st.just(None))
        elif how == "missing" and required:
            del args[draw(st.sampled_from(required))]
        elif how in ("missing", "extra"):
            args[draw(st.text(min_size=1, max_size=12).filter(lambda k: k not in properties))] = draw(_json_values)
        elif how == "huge":
            args[draw(st.sampled_from(strings or names))] = draw(_huge_strings)
        elif how == "deep":
            depth = draw(st.sampled_from([64, 300, 1_500, 20_000]))
            args[RAW_MARK] = (key, _deep(depth, draw(st.sampled_from(["list", "dict"]))))
        elif how == "unicode":
            for name in strings or names:
                args[name] = draw(_unicode_text)
        else:
            return draw(st.one_of(st.none(), st.lists(_json_scalars, max_size=3), _json_scalars))
        return args

    return broken()
