"""Page-range parsing for pdf_split (no I/O)."""

from __future__ import annotations

import pytest

from mcp_platform.contracts.pdf import MAX_SPLIT_PARTS, parse_ranges


def test_pages_and_ranges() -> None:
    assert parse_ranges("1-3,7") == [(1, 3), (7, 7)]
    assert parse_ranges(" 2 - 2 , 10-12 ") == [(2, 2), (10, 12)]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "is not a page"),
        ("0", "count from 1"),
        ("3-1", "low to high"),
        ("1-", "is not a page"),
        ("a", "is not a page"),
        ("1,,2", "is not a page"),
        (",".join(["1"] * (MAX_SPLIT_PARTS + 1)), "at most"),
    ],
)
def test_invalid(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_ranges(text)
