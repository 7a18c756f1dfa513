"""credits: the caller's balance and the price card of seed 004 (free)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcp_platform.contracts.research import DEPTH_PRICES, SCHEMA_VERSION
from mcp_platform.outbound.provider_status import provider_status
from research_service.settings import settings

if TYPE_CHECKING:
    from mcp_platform.contracts.research import CreditsInput
    from mcp_platform.runtime.service import ServiceContext

PACKS = {"starter": 1000, "standard": 2500, "pro": 5000}
"""Credit packs on sale (credits; 1 credit = 1 cent)."""
METERS_USD = {
    "quick": DEPTH_PRICES["quick"] / 100,
    "lite": DEPTH_PRICES["quick"] / 100,
    "standard": DEPTH_PRICES["standard"] / 100,
    "deep": 1.5,
}
"""USD per live brief, by the tool's depth names; `lite` is seed 004's name for quick (the seed pins it).
deep's meter is its list price; while deep is a preview it is billed 0."""
BILLED_DEPTHS = ("quick", "standard")


def credits(_arguments: CreditsInput, ctx: ServiceContext) -> dict[str, Any]:
    """Balance from the router (`ctx.balance`, credits = cents); null when the router did not pass one.

    `break_glass` is false: this platform has no break-glass mode that suspends billing. `research`
    says in `meta.mode`'s words whether briefs are live (billed) or not (`sample`: a recorded run
    where the arguments match one, else the fixed sample; free), what each depth costs here and
    live, with which backends, and which settings are missing for live research.
    """
    balance = ctx.balance
    backends = provider_status(settings())
    live = not backends["missing"]
    return {
        "schema_version": SCHEMA_VERSION,
        "balance_cents": balance,
        "balance_usd": None if balance is None else round(balance / 100, 2),
        "packs": PACKS,
        "meters_usd": METERS_USD,
        "fail_usd": 0,
        "break_glass": False,
        "research": {
            "mode": "live" if live else "sample",
            "prices": {depth: DEPTH_PRICES[depth] if live else 0 for depth in BILLED_DEPTHS},
            "live_prices": {depth: DEPTH_PRICES[depth] for depth in BILLED_DEPTHS},
            **backends,
        },
    }
