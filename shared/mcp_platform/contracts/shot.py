"""shot: screenshots of web pages in headless Chromium, every request the page makes held to the
SSRF rules of fetch (public http(s) addresses only, checked after DNS, redirects included).

The image is staged for the caller (a download URL); a small JPEG thumbnail comes back inline.
"""

from __future__ import annotations

from typing import Annotated, Literal, Self

from pydantic import AfterValidator, BaseModel, Field, WithJsonSchema, model_validator

from mcp_platform.catalogue.registry import Annotations, ToolInput, ToolSpec
from mcp_platform.contracts._common import StatusOutput, status_tool
from mcp_platform.contracts._staging import STAGED_OBJECT_SCHEMA
from mcp_platform.protocol.schema import output_schema
from mcp_platform.web.addresses import public_url

SERVICE = "shot"
Device = Literal["iphone-15", "iphone-se", "pixel-8", "galaxy-s24", "ipad-mini", "ipad-pro-11"]
MAX_WAIT_MS = 10_000
MAX_IMAGE_HEIGHT = 16_384
"""A full-page capture is cut at this many CSS pixels (Chromium's own texture limit is near it)."""


class CaptureInput(ToolInput):
    url: Annotated[str, AfterValidator(public_url)] = Field(
        max_length=4096, description="The page, an absolute http(s) URL on the public internet."
    )
    width: int = Field(default=1280, ge=320, le=3840, description="Viewport width in CSS pixels.")
    height: int = Field(default=800, ge=240, le=2160, description="Viewport height in CSS pixels.")
    full_page: bool = Field(
        default=False,
        description=f"Capture the whole scrollable page (cut at {MAX_IMAGE_HEIGHT} px), not just the viewport.",
    )
    format: Literal["png", "jpeg"] = Field(default="png")
    quality: int = Field(default=80, ge=1, le=100, description="JPEG quality; only with format jpeg.")
    wait_ms: int = Field(default=0, ge=0, le=MAX_WAIT_MS, description="Extra wait after the page has loaded.")
    wait_for: str | None = Field(
        default=None,
        min_length=1,
        max_length=500,
        description="A CSS selector to wait for (up to the page-load timeout) before the capture.",
    )
    device: Device | None = Field(
        default=None,
        description="A mobile or tablet preset (viewport, pixel ratio, touch, user agent); overrides width and height.",
    )
    dark_mode: bool = Field(default=False, description="Ask the page for its dark colour scheme.")
    block_ads: bool = Field(default=False, description="Skip requests to well-known ad and tracking hosts.")

    @model_validator(mode="after")
    def _quality_with_jpeg(self) -> Self:
        if self.format == "png" and "quality" in self.model_fields_set:
            raise ValueError("quality applies to format jpeg only")
        return self


class BlockedRequest(BaseModel):
    url: str = Field(description="The request's URL (cut at 300 characters).")
    reason: str


class CaptureOutput(BaseModel):
    file: Annotated[dict[str, object], WithJsonSchema(STAGED_OBJECT_SCHEMA)]
    format: Literal["png", "jpeg"]
    width: int = Field(description="Image width in pixels.")
    height: int = Field(description="Image height in pixels.")
    bytes: int
    final_url: str = Field(description="The page's URL after redirects.")
    title: str
    status: int | None = Field(default=None, description="HTTP status of the page's main response.")
    truncated: bool = Field(description=f"true when a full-page capture was cut at {MAX_IMAGE_HEIGHT} px.")
    load_ms: int
    blocked_requests: list[BlockedRequest] = Field(
        description="Requests of the page the SSRF rules (or block_ads) stopped; the page renders without them."
    )


class ShotStatus(StatusOutput):
    engine: str = Field(description="The browser and its version, once one has started in this container.")
    playwright: str
    browser_path: str | None = Field(description="The Chromium executable; null: Playwright's own browser.")
    devices: list[str]
    limits: dict[str, int]


TOOLS = [
    ToolSpec(
        name="shot_capture",
        service=SERVICE,
        title="Screenshot a web page",
        description="Opens a public web page in headless Chromium and captures the viewport or the whole page as "
        "PNG or JPEG: the image is staged with a download URL, a thumbnail comes back inline. Viewport size, "
        "mobile presets, dark mode, waits for a selector. Every request the page makes is held to fetch's SSRF "
        "rules. 3 credits.",
        input_model=CaptureInput,
        output_schema=output_schema(CaptureOutput),
        annotations=Annotations(read_only=True, idempotent=False, open_world=True),
        price=3,
        task_support="optional",  # a slow site's full page can take longer than a synchronous call may
    ),
    status_tool(
        SERVICE,
        title="shot service status",
        description="Browser engine and version, Playwright version, device presets and limits. Free.",
        output_schema=output_schema(ShotStatus),
    ),
]
