"""One way to build AWS clients: the shared session, explicit timeouts, no `boto3.client` anywhere else."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from botocore.config import Config

from mcp_platform.storage import aws

if TYPE_CHECKING:
    from collections.abc import Iterator

ROOT = Path(__file__).resolve().parents[2]
CODE = [p for d in ("shared", "functions", "localdev") for p in (ROOT / d).rglob("*.py")]


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    """The session and clients built here may predate moto's import: later tests must not inherit them."""
    aws.client.cache_clear()
    yield
    aws.client.cache_clear()
    aws.session.cache_clear()


def test_shared_clients_have_explicit_timeouts_and_bounded_retries() -> None:
    ddb = aws.client("dynamodb")
    assert ddb is aws.client("dynamodb")  # once per container
    assert (ddb.meta.config.connect_timeout, ddb.meta.config.read_timeout) == (2, 10)
    assert ddb.meta.config.retries == {"mode": "standard", "total_max_attempts": 3}


def test_a_configured_client_keeps_the_default_timeouts_it_does_not_override() -> None:
    lam = aws.configured_client("lambda", Config(read_timeout=26).merge(aws.one_attempt()))
    assert (lam.meta.config.connect_timeout, lam.meta.config.read_timeout) == (2, 26)
    local = aws.configured_client("dynamodb", endpoint_url="http://127.0.0.1:4566", region_name="us-east-1")
    assert local.meta.endpoint_url == "http://127.0.0.1:4566" and local.meta.config.read_timeout == 10


def test_a_client_is_built_without_listing_every_service_botocore_knows(monkeypatch: pytest.MonkeyPatch) -> None:
    """botocore checks a service name against a scan of its ~400 model directories (~40 ms of a cold start)."""
    import os

    from botocore.exceptions import UnknownServiceError

    aws.session.cache_clear()
    listed: list[str] = []
    listdir = os.listdir
    monkeypatch.setattr(os, "listdir", lambda path=".": listed.append(str(path)) or listdir(path))
    assert aws.client("dynamodb").meta.service_model.service_name == "dynamodb"
    assert len(listed) < 10, f"{len(listed)} directories listed"
    with pytest.raises(UnknownServiceError, match="Unknown service: 'dynamodbb'"):
        aws.configured_client("dynamodbb")


def _direct_client_calls(path: Path) -> list[int]:
    lines = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "client":
            owner = node.func.value
            if isinstance(owner, ast.Name) and owner.id == "boto3":
                lines.append(node.lineno)
    return lines


def test_no_module_builds_a_boto3_client_itself() -> None:
    offenders = {str(p.relative_to(ROOT)): lines for p in CODE if (lines := _direct_client_calls(p))}
    assert not offenders, f"build AWS clients with mcp_platform.storage.aws: {offenders}"


def test_the_single_attempt_client_sends_each_request_once() -> None:
    once = aws.client("dynamodb", once=True)
    assert once is aws.client("dynamodb", once=True) and once is not aws.client("dynamodb")
    assert once.meta.config.retries["total_max_attempts"] == 1
    assert (once.meta.config.connect_timeout, once.meta.config.read_timeout) == (2, 10)
