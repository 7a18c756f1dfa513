"""The research LLM's reply read as a draft: bare JSON or JSON in a markdown code fence."""

from __future__ import annotations

import pytest

from research_service.drafting import BriefDraft, parse_reply

JSON = '{"tldr": "T", "gaps": ["g"]}'


@pytest.mark.parametrize(
    "reply",
    [
        JSON,
        f"```json\n{JSON}\n```",
        f"```JSON\n{JSON}\n```\n",
        f"  ```\n{JSON}```",
        f"\n\n```json {JSON}  \n\t```  \n",
        f"{JSON}\n```",
        f"```json\n{JSON}",
        f"{JSON}{' ' * 5000}```{' ' * 5000}",
    ],
)
def test_fenced_or_bare_json_is_read(reply: str) -> None:
    assert parse_reply(reply, BriefDraft) == BriefDraft(tldr="T", gaps=["g"])


@pytest.mark.parametrize(
    "reply",
    [
        "",
        "```",
        "```json\n```",
        "Here it is: ```json\n{}```",
        f"```json\n{JSON}\n``` and more",
        " " * 10_000,
        pytest.param("[" * 25_000, id="nested-too-deeply-to-parse"),
    ],
)
def test_not_json_or_text_around_the_fence_is_none(reply: str) -> None:
    assert parse_reply(reply, BriefDraft) is None
