"""What the gateway is built from: stores, invoker, settings and clocks (`wiring.py` builds them from the environment).

Its own module so that the modules the gateway wires (`task_wiring`, `wiring`) can name it without
importing the gateway, which imports them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    from mcp_platform.auth.accounts import SignupDesk
    from mcp_platform.billing.lifecycle import CallLedger
    from mcp_platform.billing.usage import LedgerHistory
    from mcp_platform.catalogue.registry import Registry
    from mcp_platform.durable_tasks.store import TaskStore
    from mcp_platform.ratelimit.limiter import RateLimiter
    from mcp_router.auth import Authenticator
    from mcp_router.invoker import Invoker
    from mcp_router.settings import RouterSettings


@dataclass(frozen=True)
class Dependencies:
    registry: Registry
    authenticator: Authenticator
    ledger: CallLedger
    limiter: RateLimiter
    invoker: Invoker
    settings: RouterSettings
    signups: SignupDesk | None = None
    """Self-service sign-up; None answers /api/auth/register as closed."""
    signup_limiter: RateLimiter | None = None
    """Per-source-address windows of an hour for sign-ups."""
    history: LedgerHistory | None = None
    """Ledger pages for credits://ledger and credits://usage; None reads them through `ledger.entries`."""
    clock: Callable[[], float] = time.time
    """Wall clock of deadlines (tests move it by hand)."""
    sleep: Callable[[float], None] = time.sleep
    task_store: TaskStore | None = None
    """Durable tasks are offered when a store is given and the invoker can start tasks."""
