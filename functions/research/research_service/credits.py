"""credits: the caller's balance and the price card of seed 004 (free)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcp_platform.contracts.research import DEPTH_PRICES, SCHEMA_VERSION
from mcp_platform.provider_status import provider_status

if TYPE_CHECKING:
    from mcp_platform.contracts.research import CreditsInput
    from mcp_platform.service import CallContext

PACKS = {"starter": 1000, "standard": 2500, "pro": 5000}
"""Credit packs on sale (credits; 1 credit = 1 cent)."""
METERS_USD = {"lite": DEPTH_PRICES["quick"] / 100, "standard": DEPTH_PRICES["standard"] / 100, "deep": 1.5}
"""USD per brief. deep's meter is its list price; while deep is a preview it is billed 0."""


def credits(_arguments: CreditsInput, ctx: CallContext) -> dict[str, Any]:
    """Balance from the router (`ctx.balance`, credits = cents); null when the router did not pass one.

    `break_glass` is false: this platform has no break-glass mode that suspends billing. `research`
    says whether briefs are live (billed) or answered from recordings, with which backends, and
    which settings are missing for live research.
    """
    balance = ctx.balance
    backends = provider_status()
    return {
        "schema_version": SCHEMA_VERSION,
        "balance_cents": balance,
        "balance_usd": None if balance is None else round(balance / 100, 2),
        "packs": PACKS,
        "meters_usd": METERS_USD,
        "fail_usd": 0,
        "break_glass": False,
        "research": {"mode": "recorded" if backends["missing"] else "live", **backends},
    }
