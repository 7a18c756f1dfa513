"""What the search providers' text fields become: tags dropped, outer spaces trimmed."""

from __future__ import annotations

import pytest

from mcp_platform.search.providers import _clean


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<b>Rust</b> is a <i>language</i> ", "Rust is a language"),
        (None, ""),
        (42, "42"),
        ("a < b and c > d", "a  d"),
        ("1 < 2", "1 < 2"),
        ("<b>x</b> < y", "x < y"),
        ("<<b>x", "x"),
        ("<>x<", "<>x<"),
        ("<" * 5000 + "x", "<" * 5000 + "x"),
        ("<b>x</b>" + "<" * 5000, "x" + "<" * 5000),
    ],
)
def test_clean_drops_tags(text: object, expected: str) -> None:
    assert _clean(text) == expected
