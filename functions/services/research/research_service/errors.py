"""Seed 004's error codes in the platform's error object, and the preview switch.

Seed 004's `toolError` requires `error` to be a machine code (one of five) and
`message` the human text; the platform's object is `{error, is_error: true,
code}` with `error` the human text. A research error satisfies both: `error`
and `code` carry the seed code, `message` the sentence an agent acts on, and
`is_error` stays true — clients of either contract read what they expect.
"""

from __future__ import annotations

from mcp_platform.protocol.errors import ToolError
from research_service.settings import settings

PREVIEW_REQUIRED = "preview_required"
SERVER_MISCONFIGURED = "server_misconfigured"


def seed_error(message: str, code: str) -> ToolError:
    """A seed 004 `toolError` that is also the platform's handler error object (see the module docstring)."""
    return ToolError(message, code, error=code, message=message)


def preview_enabled() -> bool:
    """Preview tools and `depth: deep` are on only where the deployment sets ENABLE_PREVIEW_TOOLS=1."""
    return settings().enable_preview_tools


def require_preview(what: str, instead: str) -> None:
    """Raise `preview_required` unless preview tools are on; `instead` tells the agent what to do."""
    if not preview_enabled():
        raise seed_error(
            f"{what} is a preview and this deployment has preview tools off (ENABLE_PREVIEW_TOOLS=1 enables "
            f"them); {instead}. Nothing was charged.",
            PREVIEW_REQUIRED,
        )
