"""shot_status: the engine, its version once started, presets and limits. Starts no browser."""

from __future__ import annotations

from importlib.metadata import version
from typing import TYPE_CHECKING

from mcp_platform.contracts.shot import MAX_IMAGE_HEIGHT, MAX_WAIT_MS, ShotStatus
from shot_service import browser
from shot_service.capture import DEVICES, MAX_IMAGE_BYTES
from shot_service.settings import settings

if TYPE_CHECKING:
    from mcp_platform.contracts._common import StatusInput
    from mcp_platform.runtime.service import ServiceContext


def shot_status(_arguments: StatusInput, _ctx: ServiceContext) -> ShotStatus:
    started = browser.host.cache_info().currsize > 0 and browser.host().version
    return ShotStatus(
        engine=started or "chromium (not started in this container yet)",
        playwright=version("playwright"),
        browser_path=settings().shot_browser_path or None,
        devices=sorted(DEVICES),
        limits={"max_image_bytes": MAX_IMAGE_BYTES, "max_image_height": MAX_IMAGE_HEIGHT, "max_wait_ms": MAX_WAIT_MS},
    )
