"""Every AWS write that is not safe to repeat is sent once (issue 34 §1); the rest retry under the standard mode.

| write                                   | policy                                                        |
|-----------------------------------------|---------------------------------------------------------------|
| Lambda Invoke (sync and Event)          | one attempt (tests/unit/test_invoke_attempts.py)              |
| debit `UpdateItem`, claim `PutItem`     | retried; a repeat finds its own journal / claim (idempotent)  |
| `TransactWriteItems`                    | retried; botocore's ClientRequestToken makes a repeat the same |
| SES `SendEmail`                         | one attempt (a repeat is a second email)                      |
| rate-limit and email counters (`ADD`)   | one attempt (a repeat counts twice)                           |
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from localdev.invoker import InProcessInvoker
from mcp_platform.storage.aws import client
from mcp_router.wiring import dependencies_from_env
from tests.support.dynamo import router_env

if TYPE_CHECKING:
    from collections.abc import Iterator


def attempts(aws_client: object) -> int:
    return int(aws_client.meta.config.retries["total_max_attempts"])  # type: ignore[attr-defined]


@pytest.fixture(autouse=True)
def fresh_clients(aws: None) -> Iterator[None]:
    client.cache_clear()
    yield
    client.cache_clear()


def test_the_routers_counters_are_sent_once_and_its_ledger_retries() -> None:
    deps = dependencies_from_env(invoker=InProcessInvoker(), env=router_env())
    assert attempts(deps.limiter._ddb) == 1  # type: ignore[attr-defined]
    assert attempts(deps.signup_limiter._ddb) == 1  # type: ignore[union-attr]
    assert attempts(deps.ledger._ddb) == 3  # type: ignore[attr-defined]


def test_the_email_send_and_its_counters_are_sent_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from email_service import ses
    from email_service.settings import settings

    monkeypatch.setenv("EMAIL_COUNTERS_TABLE", "RateLimitTable")
    for cached in (settings, ses.ses, ses.counters):
        cached.cache_clear()
    try:
        assert attempts(ses.ses()) == 1
        assert attempts(ses.counters()._ddb) == 1
    finally:
        for cached in (settings, ses.ses, ses.counters):
            cached.cache_clear()
