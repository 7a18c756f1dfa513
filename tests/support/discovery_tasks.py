"""The natural-language tasks that measure `tools_search`, and how they are split and scored.

tests/fixtures/discovery/tasks.jsonl is split in two fixed halves by a hash of the query: dev (what
the vocabulary was tuned on) and held-out (not looked at while tuning). tasks_late.jsonl was written
after tuning and never tuned on. bench/discovery.py reports all three; tests/unit/test_tool_search.py
holds the held-out half to the targets.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import orjson

if TYPE_CHECKING:
    from mcp_platform.catalogue.tool_search import ToolIndex

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "discovery"
TASKS = FIXTURES / "tasks.jsonl"
LATE_TASKS = FIXTURES / "tasks_late.jsonl"
"""Written after the vocabulary was tuned, and never tuned on: a second held-out set."""
FRESH_TASKS = FIXTURES / "tasks_fresh.jsonl"
"""Written before the embedding was tried, by another hand, in five styles; never tuned on: a third."""


@dataclass(frozen=True)
class Task:
    query: str
    tool: str
    style: str

    @property
    def held_out(self) -> bool:
        """Fixed split: half of the tasks, by a hash of the query, are never looked at while tuning."""
        return hashlib.sha256(self.query.encode()).digest()[0] % 2 == 1


def load_tasks(path: Path = TASKS) -> list[Task]:
    return [Task(**orjson.loads(line)) for line in path.read_text().splitlines() if line.strip()]


def accuracy(index: ToolIndex, tasks: list[Task]) -> tuple[float, float, list[tuple[Task, list[str]]]]:
    """Top-1 and top-3 shares, and the misses (task, top 3 names) outside the top 3."""
    top1 = top3 = 0
    misses = []
    for task in tasks:
        names = [hit.spec.name for hit in index.search(task.query, limit=3)]
        top1 += names[:1] == [task.tool]
        top3 += task.tool in names
        if task.tool not in names:
            misses.append((task, names))
    n = max(1, len(tasks))
    return top1 / n, top3 / n, misses
