"""The README's tool catalogue is generated from the registry and must be current."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_readme_catalogue_is_regenerated() -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_readme_catalog.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr


def test_catalogue_summaries_are_whole_sentences() -> None:
    """Issue 39: 'One first-level region by admin code (e.g' — a summary ends at a sentence's end only."""
    from mcp_platform.catalogue.generated_docs import first_sentence
    from mcp_platform.catalogue.registry import load_registry

    for spec in load_registry():
        summary = first_sentence(spec.description)
        assert summary.count("(") == summary.count(")"), (spec.name, summary)
        assert not summary.endswith(("e.g", "i.e", "etc", "vs")), (spec.name, summary)
        assert spec.description.startswith(summary), spec.name
    assert first_sentence("One region by code (e.g. DE.16, not 16). Free.") == "One region by code (e.g. DE.16, not 16)"
    assert first_sentence("Ends at the end.") == "Ends at the end"
