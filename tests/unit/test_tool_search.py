"""tools_search's ranking: the targets on held-out tasks, and an index that is the registry's."""

from __future__ import annotations

import time

import pytest

from mcp_platform.registry import load_registry
from mcp_platform.tool_search import ToolIndex, query_terms, stem, summary
from tests.support.discovery_tasks import LATE_TASKS, accuracy, load_tasks


@pytest.fixture(scope="module")
def index() -> ToolIndex:
    registry = load_registry()
    return ToolIndex(registry, registry.descriptions)


def test_the_tasks_name_real_tools_several_per_tool_in_several_styles() -> None:
    tasks = load_tasks()
    names = {spec.name for spec in load_registry()}
    assert len(tasks) >= 150
    assert {t.tool for t in [*tasks, *load_tasks(LATE_TASKS)]} <= names
    assert {t.style for t in tasks} == {"question", "imperative", "goal", "keywords"}
    assert len({t.query for t in tasks}) == len(tasks), "no task twice"


def test_held_out_accuracy_meets_the_targets(index: ToolIndex) -> None:
    held = [t for t in load_tasks() if t.held_out]
    assert len(held) >= 75
    top1, top3, misses = accuracy(index, held)
    assert top3 >= 0.90, misses
    assert top1 >= 0.75


def test_every_listed_tool_can_be_found_by_its_own_title(index: ToolIndex) -> None:
    """The index is built from the registry, so it cannot miss a tool tools/list publishes."""
    registry = load_registry()
    missing = [s.name for s in registry if s.name not in [h.spec.name for h in index.search(s.title, limit=20)]]
    assert missing == []


def test_a_query_is_fast(index: ToolIndex) -> None:
    queries = [t.query for t in load_tasks()]
    started = time.perf_counter()
    for query in queries:
        index.search(query)
    assert (time.perf_counter() - started) / len(queries) < 0.005, "a few hundred microseconds each"


def test_allowed_limits_the_results_and_ties_keep_catalogue_order(index: ToolIndex) -> None:
    allowed = frozenset({"geo_distance", "qr_generate"})
    assert {h.spec.name for h in index.search("distance between two cities", 5, allowed)} <= allowed
    assert index.search("zzzz qqqq") == []


def test_words_and_expansions() -> None:
    assert stem("cities") == "city" and stem("recalled") == "recall" and stem("address") == "address"
    terms = query_terms("how far is Paris from Berlin?")
    assert terms["pari"] == 1.0 and 0 < terms["distance"] < 1
    assert summary("Does one thing. Then more.") == "Does one thing."
    assert summary("Cuts (e.g. IT.03) and incl. Latin. Then more.") == "Cuts (e.g. IT.03) and incl. Latin."
