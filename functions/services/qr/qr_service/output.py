"""A rendered image as a tool result: staged file + inline image + what was encoded."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcp_platform.contracts.qr import ImageResult
from mcp_platform.protocol.binary import stage_output
from mcp_platform.runtime.service import ServiceContext, ToolOutput

if TYPE_CHECKING:
    from qr_service.rendering import Rendered


def image_result(rendered: Rendered, ctx: ServiceContext, stem: str) -> ToolOutput:
    fmt = "svg" if rendered.media_type == "image/svg+xml" else "png"
    staged = stage_output(rendered.data, rendered.media_type, ctx, filename=f"{stem}.{fmt}")
    result = ImageResult(payload=rendered.payload, format=fmt, symbol=rendered.symbol)
    return ToolOutput(
        structured={**result.model_dump(mode="json", exclude_none=True), "file": staged.file},
        content=staged.content,
    )
