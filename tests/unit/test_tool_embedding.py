"""tools_search's embedding: the router's copy of WordLlama is the wheel's, and behaves as it does."""

from __future__ import annotations

import math
from operator import mul

from mcp_router.tool_embedding import DIMENSIONS, wordllama
from tests.support.discovery_tasks import FRESH_TASKS, LATE_TASKS, TASKS, load_tasks


def test_vectors_are_unit_length_and_an_empty_text_is_zero() -> None:
    vector, empty = wordllama().embed(["transcribe a recording", ""])
    assert len(vector) == DIMENSIONS
    assert math.isclose(sum(map(mul, vector, vector)), 1.0, rel_tol=1e-6)
    assert not any(empty)


def test_related_sentences_are_nearer_than_unrelated_ones() -> None:
    audio, speech, city = wordllama().embed(["turn a voice memo into text", "transcribe speech", "capital of France"])
    assert sum(map(mul, audio, speech)) > sum(map(mul, audio, city))


def test_the_tokenizer_gives_the_wheels_tokens() -> None:
    import importlib.resources

    from tokenizers import Tokenizer

    path = importlib.resources.files("wordllama") / "tokenizers" / "l2_supercat_tokenizer_config.json"
    reference = Tokenizer.from_file(str(path))
    texts = [t.query for f in (TASKS, LATE_TASKS, FRESH_TASKS) for t in load_tasks(f)]
    texts += ["naïve café in 東京 😀", "IBAN DE89370400440532013000, e-mail: a@b.co", ""]
    ours = wordllama()._tokenizer
    assert [ours.encode(t) for t in texts] == [reference.encode(t, add_special_tokens=False).ids for t in texts]


def test_the_committed_data_is_the_wheels() -> None:
    """scripts/build_tool_vectors.py wrote data/ from the pinned wheel; rerun it after upgrading wordllama."""
    from importlib.resources import files

    from scripts.build_tool_vectors import bpe, quantised_table

    data = files("mcp_router") / "data"
    assert data.joinpath("wordllama_256_int8.bin").read_bytes() == quantised_table()
    assert data.joinpath("wordllama_bpe.json.gz").read_bytes() == bpe()
