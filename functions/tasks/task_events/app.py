"""Lambda entry of the task events function (template: `task_events.app.handler`)."""

from __future__ import annotations

import os
from functools import cache
from typing import Any

from mcp_platform import aws
from mcp_platform.billing.dynamodb import DynamoLedger
from mcp_platform.billing.lifecycle import Calls
from mcp_platform.observability import logger, traced_handler
from mcp_platform.tasks.destination import on_failed_event
from mcp_platform.tasks.worker import default_store


@cache
def _calls() -> Calls:
    env = os.environ
    return Calls(DynamoLedger(aws.client("dynamodb"), env["ACCOUNTS_TABLE"], env["LEDGER_TABLE"], env["CALLS_TABLE"]))


def _handle(event: dict[str, Any], _context: Any) -> dict[str, Any]:
    return on_failed_event(event, default_store(), _calls())


handler = logger.inject_lambda_context(traced_handler(_handle), clear_state=True)
