"""The error registry: every code the tree raises is listed with retryable and meaning, and published."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from docs_service import readers
from mcp_platform.protocol.errors import ERRORS, ErrorCode, ToolError, error_object
from mcp_platform.storage import secrets
from mcp_platform.web.errors import WebErrorCode
from pdf_service import documents
from research_service import errors as research_errors
from tests.support.router import platform

ROOT = Path(__file__).resolve().parents[2]
CODE_LITERAL = re.compile(
    r'(?:ToolError|error_object|_error_reply|failed)\(\s*[^,()]+(?:\([^()]*\))?[^,()]*,\s*"([a-z_]+)"'
)


def test_every_enumerated_and_named_code_is_registered() -> None:
    named = {
        readers.NO_TEXT,
        documents.PDF_ENCRYPTED,
        research_errors.PREVIEW_REQUIRED,
        research_errors.SERVER_MISCONFIGURED,
        secrets.NOT_CONFIGURED,
    }
    codes = {str(c) for c in ErrorCode} | {str(c) for c in WebErrorCode} | named
    assert codes - set(ERRORS) == set()


def test_every_code_literal_in_the_tree_is_registered() -> None:
    found: set[str] = set()
    for path in [*ROOT.joinpath("functions").rglob("*.py"), *ROOT.joinpath("shared").rglob("*.py")]:
        found |= set(CODE_LITERAL.findall(path.read_text()))
    assert found, "the scan found nothing: the pattern no longer matches how codes are passed"
    assert found - set(ERRORS) == set()


@pytest.mark.parametrize(
    ("code", "retryable"),
    [
        ("upstream_unavailable", True),
        ("rate_limited", True),
        ("call_in_progress", True),
        ("invalid_arguments", False),
        ("insufficient_credits", False),
        ("idempotency_conflict", False),
    ],
)
def test_retryable_says_whether_sending_the_same_call_again_can_help(code: str, retryable: bool) -> None:
    assert ERRORS[code].retryable is retryable


def test_is_error_can_never_be_overridden() -> None:
    with pytest.raises(TypeError):
        error_object("boom", "internal", is_error=False)
    with pytest.raises(TypeError):
        ToolError("boom", "internal", is_error=False)
    restated = error_object("text", "preview_required", error="preview_required", message="text")
    assert restated == {"error": "preview_required", "is_error": True, "code": "preview_required", "message": "text"}


def test_the_registry_is_published_as_docs_errors() -> None:
    plat = platform()
    text = plat.rpc("resources/read", {"uri": "docs://errors"})["contents"][0]["text"]
    for spec in ERRORS.values():
        assert f"| `{spec.code}` | {'yes' if spec.retryable else 'no'} |" in text
    assert "told apart by their JSON-RPC id" in text
