"""Budgets stop reading early, with a gap, instead of running into the Lambda timeout."""

from __future__ import annotations

import time

import pytest

from research_service.budget import CAPS, DRAFT_RESERVE_SECONDS, Budget
from research_service.ports import Page, SearchHit
from research_service.reading import read_pages, search_all


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class SlowFetcher:
    """Every fetch takes `seconds` of the fake clock."""

    def __init__(self, clock: Clock, seconds: float) -> None:
        self.clock, self.seconds, self.asked = clock, seconds, []

    def fetch(self, url: str, timeout: float) -> Page:
        self.asked.append((url, timeout))
        self.clock.now += self.seconds
        return Page(url=url, final_url=url, status=200, text="some text")


URLS = [f"https://site{i}.example/" for i in range(6)]


def test_seconds_cap_is_bounded_by_what_the_lambda_has_left() -> None:
    clock = Clock()
    assert Budget(CAPS["standard"], seconds_left=5, clock=clock).seconds_left() == 5
    assert Budget(CAPS["quick"], seconds_left=600, clock=clock).seconds_left() == CAPS["quick"].seconds


def test_no_page_is_started_when_only_the_drafting_reserve_is_left() -> None:
    clock = Clock()
    budget = Budget(CAPS["standard"], seconds_left=DRAFT_RESERVE_SECONDS + 0.5, clock=clock)
    fetcher = SlowFetcher(clock, seconds=3)
    reading = read_pages(fetcher, budget, URLS)
    assert reading.pages == [] and fetcher.asked == []
    assert reading.gaps == ["time budget: no time left to read the 6 pages found"]


class SleepyFetcher:
    """Every fetch sleeps `seconds` of real time; URLs ending in 'gone/' answer 404."""

    def __init__(self, seconds: float) -> None:
        self.seconds, self.asked = seconds, []

    def fetch(self, url: str, timeout: float) -> Page:
        self.asked.append((url, timeout))
        time.sleep(self.seconds)
        status = 404 if url.endswith("gone/") else 200
        return Page(url=url, final_url=url, status=status, text="some text")


def test_pages_are_read_concurrently_within_one_step_timeout_and_keep_their_order() -> None:
    fetcher = SleepyFetcher(0.3)
    urls = [*URLS[:5], "https://site9.example/gone/"]
    budget = Budget(CAPS["standard"], seconds_left=DRAFT_RESERVE_SECONDS + 7)
    started = time.monotonic()
    reading = read_pages(fetcher, budget, urls)
    assert time.monotonic() - started < 0.3 * 3  # six 0.3 s fetches, not 1.8 s in a row
    assert [page.url for page in reading.pages] == URLS[:5] and budget.pages_read == 5
    assert reading.gaps == ["not read (HTTP 404, no text): https://site9.example/gone/"]
    assert all(timeout == pytest.approx(7, abs=0.1) for _, timeout in fetcher.asked) and len(fetcher.asked) == 6


def test_page_cap_limits_reading() -> None:
    clock = Clock()
    reading = read_pages(SlowFetcher(clock, 0.1), Budget(CAPS["quick"], 60, clock=clock), URLS)
    assert len(reading.pages) == CAPS["quick"].pages
    assert reading.gaps == []


def test_token_budget_shares_the_prompt_between_pages() -> None:
    budget = Budget(CAPS["quick"], 60, clock=Clock())
    one, three = budget.prompt_chars_per_page(1), budget.prompt_chars_per_page(3)
    assert three == one // 3
    budget.spend_tokens(CAPS["quick"].tokens, 0)
    assert budget.prompt_chars_per_page(1) == 0


def test_a_task_may_read_longer_but_no_more_pages() -> None:
    from research_service.budget import TASK_TIME_FACTOR, for_task

    clock = Clock()
    caps = for_task(CAPS["deep"])
    assert (caps.pages, caps.searches, caps.tokens) == (CAPS["deep"].pages, CAPS["deep"].searches, CAPS["deep"].tokens)
    budget = Budget(caps, seconds_left=800, clock=clock)
    assert budget.seconds_left() == CAPS["deep"].seconds * TASK_TIME_FACTOR
    assert Budget(CAPS["deep"], seconds_left=800, clock=clock).seconds_left() == CAPS["deep"].seconds


def test_a_stopped_run_has_no_time_left_for_reading_or_drafting() -> None:
    stopped = [False]
    budget = Budget(CAPS["standard"], seconds_left=600, clock=Clock(), stop=lambda: stopped[0])
    assert budget.step_timeout() is not None
    stopped[0] = True  # the task was cancelled
    assert budget.seconds_left() == 0
    assert budget.step_timeout() is None and budget.draft_timeout() is None


class RecordingSearcher:
    def __init__(self) -> None:
        self.asked: list[tuple[str, float]] = []

    def search(self, query: str, num: int, timeout: float) -> list[SearchHit]:
        self.asked.append((query, timeout))
        return [SearchHit(title=query, link=f"https://{len(self.asked)}.example/")]


def test_each_search_gets_the_budgets_step_timeout() -> None:
    searcher, gaps = RecordingSearcher(), []
    budget = Budget(CAPS["standard"], seconds_left=DRAFT_RESERVE_SECONDS + 5, clock=Clock())
    hits = search_all(searcher, budget, ["a", "b", "c"], gaps)
    assert [q for q, _ in searcher.asked] == ["a", "b"] and len(hits) == 2 and gaps == []
    assert all(timeout == 5 for _, timeout in searcher.asked)  # not the provider's own default
