"""qr_status: what the service runs on and which symbologies it handles."""

from __future__ import annotations

from importlib.metadata import version
from typing import TYPE_CHECKING, get_args

import zxingcpp

from mcp_platform.contracts.qr import QrStatus, Symbology

if TYPE_CHECKING:
    from mcp_platform.contracts._common import StatusInput
    from mcp_platform.runtime.service import ServiceContext

LIBRARIES = ("segno", "zxing-cpp", "pillow", "schwifty", "python-stdnum")


def qr_status(_arguments: StatusInput, _ctx: ServiceContext) -> QrStatus:
    return QrStatus(
        libraries={name: version(name) for name in LIBRARIES},
        symbologies=list(get_args(Symbology)),
        decodable=decodable_formats(),
    )


def decodable_formats() -> list[str]:
    """The formats (not groups) zxing-cpp reads."""
    return sorted({fmt.name for fmt in zxingcpp.barcode_formats_list(zxingcpp.BarcodeFormat.AllReadable)})
