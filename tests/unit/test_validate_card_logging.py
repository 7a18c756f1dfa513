"""Card numbers never reach the logs, whatever path the call takes."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import pytest

from localdev import template
from mcp_platform.runtime.observability import logger
from validate_service.app import app

CARDS = ["4111111111111111", "4111 1111 1111 1112", "3782-822463-10005", "41111111x1111111"]


@pytest.fixture
def captured(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    """Powertools' logger does not propagate to the root logger: attach caplog's handler to it directly."""
    pt_logger = logging.getLogger(logger.name)
    previous = pt_logger.level
    pt_logger.addHandler(caplog.handler)
    pt_logger.setLevel(logging.DEBUG)
    caplog.set_level(logging.DEBUG)
    yield caplog
    pt_logger.removeHandler(caplog.handler)
    pt_logger.setLevel(previous)


def _lambda_context() -> SimpleNamespace:
    return SimpleNamespace(
        function_name="svc-validate",
        memory_limit_in_mb=512,
        invoked_function_arn="arn:aws:lambda:us-east-1:123456789012:function:svc-validate",
        aws_request_id="req-1",
        get_remaining_time_in_millis=lambda: 20_000,
    )


def test_no_card_digits_in_any_log_record(captured: pytest.LogCaptureFixture) -> None:
    for number in CARDS:
        event = {"tool": "validate_card", "arguments": {"number": number}, "account_id": "a", "request_id": "r"}
        app.handle(event)
        app.lambda_handler(event, _lambda_context())
    # Arguments that fail validation are logged as a tool error: the path most likely to leak.
    too_long = "4111111111111111" * 3
    reply = app.handle(
        {"tool": "validate_card", "arguments": {"number": too_long}, "account_id": "a", "request_id": "r"}
    )
    assert reply.structured_content["code"] == "invalid_arguments"
    assert "4111111111111111" not in reply.structured_content["error"]

    assert captured.records, "the test must see the service's log records to mean anything"
    logged = "\n".join(f"{record.getMessage()} {record.__dict__}" for record in captured.records)
    for number in [*CARDS, too_long]:
        digits = "".join(ch for ch in number if ch.isdigit())
        assert digits not in logged
        assert digits[:12] not in logged


def test_the_deployed_function_never_logs_its_event() -> None:
    """Powertools would log the whole invoke event (card number included) if this were switched on."""
    globals_env = template.load_template()["Globals"]["Function"]["Environment"]["Variables"]
    assert globals_env["POWERTOOLS_LOGGER_LOG_EVENT"] == "false"
    assert "POWERTOOLS_LOGGER_LOG_EVENT" not in template.service_functions()["validate"].environment
