"""search and fetch contracts: seed schemas published verbatim, argument rules in the input models."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from mcp_platform.protocol.errors import ToolError

if TYPE_CHECKING:
    from mcp_platform.catalogue.registry import Registry

SEEDS = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "seeds" / "web_tools.json").read_text())


@pytest.mark.parametrize("tool", sorted(SEEDS))
def test_published_schemas_are_the_seeds(registry: Registry, tool: str) -> None:
    spec = registry.get(tool)
    assert spec is not None
    assert spec.output_schema == SEEDS[tool]["output"]
    assert spec.input_schema == SEEDS[tool]["input"]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"q": "trams site:index.hu"}, "q: Value error, do not put the site: operator into q"),
        ({"q": "x filetype:pdf"}, "do not put the filetype: operator into q"),
        ({"q": "https://index.hu/a"}, "q: Value error, is a URL"),
        ({"q": "   "}, "q: Value error, must not be blank"),
        ({"q": "x", "site": "https://index.hu"}, "site: Value error, 'https://index.hu' is not a bare hostname"),
        ({"q": "x", "site": ["index.hu", "index.hu/path"]}, "not a bare hostname"),
        ({"q": "x", "site": ["a.hu"] * 6}, "site: Value error, give 1 to 5 hostnames"),
        ({"q": "x", "site": []}, "give 1 to 5 hostnames"),
        ({"q": "x", "site": "bad host.hu"}, "not a bare hostname"),
        ({"q": "x", "after": "2024-13-01"}, "after: Value error, '2024-13-01' is not a date in YYYY-MM-DD form"),
        ({"q": "x", "before": "yesterday"}, "before: Value error"),
        ({"q": "x", "after": "2024-05-02", "before": "2024-05-01"}, "after (2024-05-02) must not be later than before"),
        ({"q": "x", "tbs": "qdr:x"}, "tbs: Input should be"),
        ({"q": "x", "filetype": "exe"}, "filetype: Input should be"),
        ({"q": "x", "num": 11}, "num: Input should be less than or equal to 10"),
        ({"q": "x", "gl": "hungary"}, "gl: Value error, must be a 2-letter code"),
        ({"q": "x" * 513}, "q: String should have at most 512 characters"),
    ],
)
def test_search_argument_rules(registry: Registry, arguments: dict[str, Any], message: str) -> None:
    for tool in ("search_web", "search_news"):
        with pytest.raises(ToolError) as info:
            registry.get(tool).validate(arguments)  # type: ignore[union-attr]
        assert info.value.code == "invalid_arguments"
        assert message in info.value.message


def test_site_is_normalised_to_a_list(registry: Registry) -> None:
    args = registry.get("search_web").validate({"q": "x", "site": "Index.HU", "gl": "HU"})  # type: ignore[union-attr]
    assert args.site == ["index.hu"] and args.gl == "hu"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"url": "https://example.com", "lang": "hun"}, "lang: String should have at most 2 characters"),
        ({"url": "https://example.com", "lang": "h1"}, "lang: Value error, must be two letters"),
        ({"url": "https://example.com", "focus": "x" * 301}, "focus: String should have at most 300 characters"),
        ({"url": "http://10.0.0.1/"}, "url: Value error, 10.0.0.1 resolves to 10.0.0.1, a private address"),
    ],
)
def test_summary_argument_rules(registry: Registry, arguments: dict[str, Any], message: str) -> None:
    with pytest.raises(ToolError) as info:
        registry.get("search_fetch_summary").validate(arguments)  # type: ignore[union-attr]
    assert message in info.value.message


def test_prices(registry: Registry) -> None:
    prices = {spec.name: spec.price for spec in registry if spec.service in ("fetch", "search")}
    assert prices == {
        "fetch": 1,
        "fetch_status": 0,
        "search_web": 2,
        "search_news": 2,
        "search_fetch": 1,
        "search_fetch_summary": 6,
        "search_status": 0,
    }
