"""json_text.loads: JSON from outside, with text nested too deeply refused like any bad JSON."""

from __future__ import annotations

import pytest

from mcp_platform.protocol import json_text


def test_reads_json() -> None:
    assert json_text.loads(b'{"a": [1, "b"]}') == {"a": [1, "b"]}


def test_text_nested_too_deeply_is_a_value_error_not_a_recursion_error() -> None:
    with pytest.raises(ValueError, match="nested too deeply") as caught:
        json_text.loads("[" * 25_000)
    assert isinstance(caught.value, json_text.JsonTooDeep)
