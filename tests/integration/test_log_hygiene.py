"""API keys and argument values never reach the logs; the call itself is logged.

Reads what a Lambda would ship to CloudWatch while real services handle calls
through the router: the Powertools log lines (its handler is pointed at a
buffer, since it keeps the stream it was created with) and the EMF metric
lines printed to stdout.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.support.logs import log_buffer  # noqa: F401 - fixture
from tests.support.router import message, platform

if TYPE_CHECKING:
    import io

SECRET_NAME = "Zyx-unmistakable-secret-941"
CARD = "4111111111111111"


@pytest.mark.parametrize(
    ("tool", "arguments", "secret"),
    [
        ("hello_ping", {"name": SECRET_NAME}, SECRET_NAME),
        ("hello_ping", {"name": SECRET_NAME * 20}, SECRET_NAME),  # invalid: the error path
        ("validate_card", {"number": CARD}, CARD),
    ],
)
def test_calls_are_logged_without_keys_or_argument_values(
    log_buffer: io.StringIO, capsys: pytest.CaptureFixture[str], tool: str, arguments: dict[str, str], secret: str
) -> None:
    p = platform()
    response = p.post(message("tools/call", {"name": tool, "arguments": arguments}))
    assert response.status == 200
    text = log_buffer.getvalue() + capsys.readouterr().out
    assert '"message":"tools/call"' in text and tool in text, "the call must be logged, else this proves nothing"
    assert secret not in text
    assert p.key not in text
    assert p.key[4:20] not in text
