"""drug_status: RxNav, openFDA and DailyMed origins, rates and cache TTLs in use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from drug_service.settings import settings
from mcp_platform.backends import describe
from mcp_platform.contracts.drug import DrugStatus

if TYPE_CHECKING:
    from mcp_platform.contracts._common import StatusInput
    from mcp_platform.runtime.service import ServiceContext


def drug_status(_arguments: StatusInput, _ctx: ServiceContext) -> DrugStatus:
    return DrugStatus.model_validate(
        {
            "backends": [describe(name, settings()) for name in ("rxnav", "openfda", "dailymed")],
            "cache_table": settings().backend_cache_table or None,
        }
    )
