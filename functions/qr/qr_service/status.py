"""qr_status: what the service runs on and which symbologies it handles."""

from __future__ import annotations

from importlib.metadata import version
from typing import TYPE_CHECKING, get_args

import zxingcpp

from mcp_platform.contracts.qr import QrStatus, Symbology

if TYPE_CHECKING:
    from mcp_platform.contracts._common import StatusInput
    from mcp_platform.service import CallContext

LIBRARIES = ("segno", "zxing-cpp", "pillow", "schwifty", "python-stdnum")


def qr_status(_arguments: StatusInput, _ctx: CallContext) -> QrStatus:
    return QrStatus(
        libraries={name: version(name) for name in LIBRARIES},
        symbologies=list(get_args(Symbology)),
        decodable=decodable_formats(),
    )


def decodable_formats() -> list[str]:
    """zxing-cpp reads every format it names; single-bit members are formats, the others groups or NONE."""
    members = zxingcpp.BarcodeFormat.__members__.items()
    return sorted(name for name, fmt in members if int(fmt).bit_count() == 1)
