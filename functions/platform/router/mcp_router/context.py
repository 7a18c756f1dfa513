"""One JSON-RPC request as the router's methods, tool caller and tasks see it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mcp_platform.catalogue.profiles import ALL

if TYPE_CHECKING:
    from mcp_platform.catalogue.profiles import Profile
    from mcp_router.auth import Principal


@dataclass(frozen=True)
class RequestContext:
    """Who asks, in which protocol era, under which ids, and until when."""

    principal: Principal
    modern: bool
    """The 2026-07-28 era (else 2025-11-25 and before): `methods.py` is where the eras differ."""
    request_id: str
    """The router's id of this message (a batch member's ends in `-<index>`): the call's id in the ledger."""
    rpc_id: Any
    deadline_epoch: float
    """Wall-clock epoch seconds (`time.time()`) at which the router stops answering this request: its
    Lambda's remaining time. The clock of every deadline between router and service."""
    idempotency_scope: str | None = None
    """What identifies the call for an Idempotency-Key: the header; in a batch, header and JSON-RPC id."""
    profile: Profile = ALL
    """Which tools this connection lists and may call (`profiles.py`): a tool outside it is refused,
    before anything is charged."""
