"""What a request takes from its account's rate window: every message counts, an expensive read more.

A JSON-RPC batch is as many requests as it has members (tool calls or not), so batching never
multiplies what a rate unit buys. A `credits://usage` read pages through up to 50 DynamoDB
Queries (`credits.USAGE_MAX_ENTRIES` entries, 200 a page): it costs `USAGE_READ_UNITS`, about what those Queries
cost next to the one or two requests of a tool call. A batch over the size limit is refused whole
as one Invalid Request, so it takes one.
"""

from __future__ import annotations

from typing import Any

USAGE_READ_UNITS = 10
"""Rate units of one `credits://usage` read (up to 50 Queries; a tool call is 1 unit for ~3 writes)."""
_USAGE_URI = "credits://usage"


def rate_units(body: Any, max_batch: int) -> int:
    """Units `body` (one message or a batch) takes from the window; at least one."""
    messages = body if isinstance(body, list) and len(body) <= max_batch else [body]
    return max(1, sum(_units(m) for m in messages))


def _units(message: Any) -> int:
    if not isinstance(message, dict):
        return 1
    params = message.get("params")
    uri = params.get("uri") if isinstance(params, dict) else None
    if message.get("method") == "resources/read" and isinstance(uri, str) and uri.startswith(_USAGE_URI):
        return USAGE_READ_UNITS
    return 1
