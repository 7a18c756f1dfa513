"""validate_status: what the service runs on."""

from __future__ import annotations

from importlib.metadata import version
from typing import TYPE_CHECKING

from mcp_platform.contracts._stdnum_kinds import KINDS
from mcp_platform.contracts.validate import ValidateStatus
from validate_service.vies import endpoint

if TYPE_CHECKING:
    from mcp_platform.contracts._common import StatusInput
    from mcp_platform.runtime.service import ServiceContext

LIBRARIES = (
    "python-stdnum", "phonenumbers", "schwifty", "email-validator", "dnspython", "jsonschema", "regex", "httpx",
)  # fmt: skip


def validate_status(_arguments: StatusInput, _ctx: ServiceContext) -> ValidateStatus:
    return ValidateStatus(
        libraries={name: version(name) for name in LIBRARIES},
        number_kinds=len(KINDS),
        vies_endpoint=endpoint(),
    )
