"""Publisher, source type and confidence from the surviving evidence."""

from __future__ import annotations

import pytest

from research_service.sources import confidence, publisher, source_type


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://science.nasa.gov/mission/webb/", "nasa.gov"),
        ("https://news.bbc.co.uk/x", "bbc.co.uk"),
        ("http://example.com", "example.com"),
        ("https://www.esa.int/Webb", "esa.int"),
    ],
)
def test_publisher_is_the_registrable_domain(url: str, expected: str) -> None:
    assert publisher(url) == expected


def test_known_hosts_override_the_models_suggestion() -> None:
    assert source_type("https://en.wikipedia.org/wiki/X", "primary") == "secondary"
    assert source_type("https://www.cdc.gov/x", "secondary") == "primary"
    assert source_type("https://acme.example/press", "primary") == "primary"
    assert source_type("https://acme.example/press", None) == "secondary"


P1, P2 = ("https://nasa.gov/a", "primary"), ("https://esa.int/b", "primary")
S1, S2 = ("https://space.com/c", "secondary"), ("https://wikipedia.org/d", "secondary")


@pytest.mark.parametrize(
    ("backing", "expected"),
    [
        ([], "unknown"),
        ([S1], "low"),
        ([S1, ("https://www.space.com/other", "secondary")], "low"),  # one publisher is one voice
        ([P1], "medium"),
        ([S1, S2], "medium"),
        ([P1, P2], "high"),
        ([P1, S1, S2], "high"),
        ([P1, ("https://www.nasa.gov/e", "primary")], "medium"),
    ],
)
def test_confidence_follows_number_and_independence(backing: list[tuple[str, str]], expected: str) -> None:
    assert confidence(backing) == expected
