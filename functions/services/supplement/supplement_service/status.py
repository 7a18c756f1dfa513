"""supplement_status: DSLD and ODS origins, rates and cache TTLs in use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcp_platform.backends import describe
from mcp_platform.contracts.supplement import SupplementStatus
from supplement_service.settings import settings

if TYPE_CHECKING:
    from mcp_platform.contracts._common import StatusInput
    from mcp_platform.runtime.service import ServiceContext


def supplement_status(_arguments: StatusInput, _ctx: ServiceContext) -> SupplementStatus:
    return SupplementStatus.model_validate(
        {
            "backends": [describe("dsld", settings()), describe("ods", settings())],
            "cache_table": settings().backend_cache_table or None,
        }
    )
