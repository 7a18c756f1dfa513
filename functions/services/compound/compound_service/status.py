"""compound_status: the PubChem origin, rate and cache TTL in use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from compound_service.settings import settings
from mcp_platform.backends import describe
from mcp_platform.contracts.compound import CompoundStatus

if TYPE_CHECKING:
    from mcp_platform.contracts._common import StatusInput
    from mcp_platform.runtime.service import ServiceContext


def compound_status(_arguments: StatusInput, _ctx: ServiceContext) -> CompoundStatus:
    return CompoundStatus.model_validate(
        {"backends": [describe("pubchem", settings())], "cache_table": settings().backend_cache_table or None}
    )
