"""The internal payload between the router and a service Lambda.

The router invokes a service with `ServiceRequest` (already validated
arguments, the caller's account) and gets back `ServiceReply`. Services are
reachable only through the router, so they trust this payload and never see
API keys, HTTP or JSON-RPC.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

REPLY_MARGIN_S = 1.0
"""Time between the instant a service should have replied and the instant its caller stops waiting."""


class ServiceRequest(BaseModel):
    """Invoke payload: `{"tool", "arguments", "account_id", "request_id"}`, + `deadline_epoch` or a task's `task_id`."""

    model_config = ConfigDict(extra="forbid")

    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    account_id: str
    request_id: str
    balance: int | None = None
    """The caller's credits before this call, only for tools that declare `needs_balance`."""
    task_id: str | None = None
    """Set when the call runs as a durable task (asynchronous invoke): the reply goes to the task store."""
    deadline_epoch: float | None = None
    """Wall-clock epoch seconds by which the service should have replied: the router stops waiting
    `REPLY_MARGIN_S` later. Unset for a task, which runs as long as its function may."""


class ServiceReply(BaseModel):
    """Invoke result: the tool's `structuredContent` plus extra MCP content blocks.

    `structured_content` is either the tool's output or the handler error
    object (`is_error: true`); `content` carries extra blocks such as
    `{"type": "image", "data", "mimeType"}` that the result builder appends
    after the text block.
    """

    model_config = ConfigDict(extra="forbid")

    structured_content: dict[str, Any]
    content: list[dict[str, Any]] = Field(default_factory=list)
    waive_charge: bool = False
    """A successful result that must not be billed (e.g. a research brief whose quote gate failed)."""

    @property
    def is_error(self) -> bool:
        return self.structured_content.get("is_error") is True
