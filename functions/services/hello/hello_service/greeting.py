"""The greeting itself: plain logic, no Lambda or MCP."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcp_platform.contracts.hello import PingInput
    from mcp_platform.runtime.service import ServiceContext


def ping(arguments: PingInput, _ctx: ServiceContext) -> dict[str, Any]:
    """`hello, <name>`; a blank or missing name greets the world."""
    name = (arguments.name or "").strip() or "world"
    ts = datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return {"message": f"hello, {name}", "ts": ts}
