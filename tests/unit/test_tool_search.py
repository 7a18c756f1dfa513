"""tools_search's ranking: the targets on unseen tasks, meaning beyond shared words, and an index that is the registry's."""

from __future__ import annotations

import time

import pytest

from mcp_platform.catalogue.registry import load_registry
from mcp_platform.catalogue.tool_search import ToolIndex, query_terms, stem, summary, words
from mcp_router.tool_embedding import wordllama
from tests.support.discovery_tasks import FRESH_TASKS, LATE_TASKS, accuracy, load_tasks


@pytest.fixture(scope="module")
def index() -> ToolIndex:
    """The ranking tools_search serves: BM25F with the vocabulary, mixed with the embedding."""
    registry = load_registry()
    return ToolIndex(registry, registry.descriptions, embedding=wordllama())


def test_the_tasks_name_real_tools_several_per_tool_in_several_styles() -> None:
    tasks = load_tasks()
    names = {spec.name for spec in load_registry()}
    assert len(tasks) >= 150
    assert {t.tool for t in [*tasks, *load_tasks(LATE_TASKS), *load_tasks(FRESH_TASKS)]} <= names
    assert {t.style for t in tasks} == {"question", "imperative", "goal", "keywords"}
    assert len({t.query for t in tasks}) == len(tasks), "no task twice"


@pytest.mark.parametrize("unseen", ["held-out", "fresh"])
def test_accuracy_on_unseen_tasks_meets_the_targets(index: ToolIndex, unseen: str) -> None:
    """Neither set was tuned on (the fresh one was written before the embedding was tried)."""
    tasks = [t for t in load_tasks() if t.held_out] if unseen == "held-out" else load_tasks(FRESH_TASKS)
    assert len(tasks) >= 75
    top1, top3, misses = accuracy(index, tasks)
    assert top3 >= 0.90, misses
    assert top1 >= 0.75


@pytest.mark.parametrize(
    ("query", "tool"),
    [
        ("photograph a website", "shot_capture"),
        ("snapshot of a homepage", "shot_capture"),
        ("mountains", "geo_rank_places"),
        ("medicine", "drug_get"),
    ],
)
def test_a_paraphrase_sharing_no_word_with_the_tool_finds_it(query: str, tool: str) -> None:
    """Words alone find nothing here (no vocabulary, no shared stem); the embedding finds the tool."""
    registry = load_registry()
    spec = next(s for s in registry if s.name == tool)
    text = " ".join([spec.name, spec.title, spec.description, registry.descriptions[spec.service]])
    assert not set(words(query)) & set(words(text))
    assert ToolIndex(registry, registry.descriptions, vocabulary={}).search(query) == []
    hybrid = ToolIndex(registry, registry.descriptions, vocabulary={}, embedding=wordllama())
    assert tool in [h.spec.name for h in hybrid.search(query, limit=3)]


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
    registry = load_registry()
    assert ToolIndex(registry, registry.descriptions).search("zzzz qqqq") == [], "words alone: nothing matches"


def test_words_and_expansions() -> None:
    assert stem("cities") == "city" and stem("recalled") == "recall" and stem("address") == "address"
    terms = query_terms("how far is Paris from Berlin?")
    assert terms["pari"] == 1.0 and 0 < terms["distance"] < 1
    assert summary("Does one thing. Then more.") == "Does one thing."
    assert summary("Cuts (e.g. IT.03) and incl. Latin. Then more.") == "Cuts (e.g. IT.03) and incl. Latin."
