"""shot_capture: load a page in a fresh browser context, wait as asked, capture, stage the image."""

from __future__ import annotations

import base64
import io
import time
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from PIL import Image

from mcp_platform.contracts.shot import MAX_IMAGE_HEIGHT, BlockedRequest, CaptureOutput
from mcp_platform.protocol.binary import stage_output
from mcp_platform.protocol.errors import ErrorCode, ToolError
from mcp_platform.runtime.service import ToolOutput
from mcp_platform.web.errors import WebErrorCode
from shot_service import browser

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Response, Route

    from mcp_platform.contracts.shot import CaptureInput
    from mcp_platform.runtime.service import ServiceContext

DEVICES = {
    "iphone-15": "iPhone 15",
    "iphone-se": "iPhone SE",
    "pixel-8": "Pixel 8",
    "galaxy-s24": "Galaxy S24",
    "ipad-mini": "iPad Mini",
    "ipad-pro-11": "iPad Pro 11",
}
"""The contract's presets → Playwright's device descriptors."""
MAX_IMAGE_BYTES = 20 * 1024 * 1024
THUMBNAIL = (320, 480)
MARGIN_S = 2.0
"""Seconds of the call kept for staging the image and answering."""
_SCHEMES = frozenset({"http", "https", "data", "blob"})
# Hosts of the largest ad and tracking networks: enough to make a capture cleaner, not an ad blocker.
AD_HOSTS = frozenset(
    """doubleclick.net googlesyndication.com googleadservices.com google-analytics.com googletagmanager.com
    googletagservices.com adservice.google.com amazon-adsystem.com adnxs.com criteo.com criteo.net taboola.com
    outbrain.com scorecardresearch.com quantserve.com rubiconproject.com pubmatic.com openx.net casalemedia.com
    moatads.com adsrvr.org hotjar.com facebook.net ads-twitter.com ads.linkedin.com bat.bing.com yandex.ru/metrika
    """.split()
)


@dataclass
class Captured:
    data: bytes
    final_url: str
    title: str
    status: int | None
    truncated: bool
    load_ms: int
    refused: list[tuple[str, str]] = field(default_factory=list)


def shot_capture(arguments: CaptureInput, ctx: ServiceContext) -> ToolOutput:
    budget = ctx.seconds_left(default=28.0) - MARGIN_S
    if budget < 3:
        raise ToolError("shot_capture: too little time left in this call to load a page", WebErrorCode.TIMEOUT)
    host = browser.host()
    host.proxy.log.take()  # forget refusals of an earlier call
    captured = host.run(partial(_capture, arguments, budget, host), timeout_s=budget + 10)
    if len(captured.data) > MAX_IMAGE_BYTES:
        raise ToolError(
            f"shot_capture: the image is {len(captured.data) // 1_048_576} MiB, over the "
            f"{MAX_IMAGE_BYTES // 1_048_576} MiB cap; use format jpeg, a smaller viewport or no full_page",
            WebErrorCode.TOO_LARGE,
        )
    image = Image.open(io.BytesIO(captured.data))
    media_type = f"image/{arguments.format}"
    staged = stage_output(captured.data, media_type, ctx, filename=f"shot.{arguments.format}", inline_image=False)
    refused = [*captured.refused, *((r.url, r.reason) for r in host.proxy.log.take())]
    out = CaptureOutput(
        file=staged.file,
        format=arguments.format,
        width=image.width,
        height=image.height,
        bytes=len(captured.data),
        final_url=captured.final_url,
        title=captured.title,
        status=captured.status,
        truncated=captured.truncated,
        load_ms=captured.load_ms,
        blocked_requests=[BlockedRequest(url=url[:300], reason=reason) for url, reason in refused[:50]],
    )
    return ToolOutput(structured=out.model_dump(mode="json", exclude_none=True), content=[_thumbnail(image)])


def _capture(arguments: CaptureInput, budget: float, host: browser.BrowserHost, chromium: Browser) -> Captured:
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    deadline = time.monotonic() + budget
    refused: list[tuple[str, str]] = []
    context = chromium.new_context(**_context_options(arguments, host))
    try:
        context.route("**/*", partial(_route, block_ads=arguments.block_ads, refused=refused))
        page = context.new_page()
        started = time.monotonic()
        try:
            response = page.goto(arguments.url, wait_until="load", timeout=_ms_left(deadline))
        except PlaywrightTimeout:
            raise ToolError(
                f"url: the page did not finish loading within {budget:.0f} s", WebErrorCode.TIMEOUT
            ) from None
        except PlaywrightError as exc:
            raise _navigation_error(arguments.url, str(exc), host) from None
        _check_response(response, arguments.url, host)
        load_ms = int((time.monotonic() - started) * 1000)
        if arguments.wait_for:
            try:
                page.wait_for_selector(arguments.wait_for, state="visible", timeout=_ms_left(deadline))
            except PlaywrightTimeout:
                raise ToolError(
                    f"wait_for: {arguments.wait_for!r} did not appear before the page-load timeout",
                    WebErrorCode.TIMEOUT,
                ) from None
            except PlaywrightError as exc:
                raise ToolError(
                    f"wait_for: not a usable CSS selector ({_first_line(str(exc))})", ErrorCode.INVALID_ARGUMENTS
                ) from None
        if arguments.wait_ms:
            page.wait_for_timeout(min(arguments.wait_ms, max(0, _ms_left(deadline) - 1000)))
        data, truncated = _screenshot(page, arguments, deadline)
        return Captured(
            data, page.url, page.title(), response.status if response else None, truncated, load_ms, refused
        )
    except PlaywrightTimeout:
        raise ToolError(f"url: the capture did not finish within {budget:.0f} s", WebErrorCode.TIMEOUT) from None
    finally:
        context.close()


def _context_options(arguments: CaptureInput, host: browser.BrowserHost) -> dict[str, Any]:
    options: dict[str, Any] = {
        "viewport": {"width": arguments.width, "height": arguments.height},
        "color_scheme": "dark" if arguments.dark_mode else "light",
        "accept_downloads": False,
        "service_workers": "block",
    }
    if arguments.device:
        descriptor = dict(host.devices[DEVICES[arguments.device]])
        descriptor.pop("default_browser_type", None)
        options.update(descriptor)
    return options


def _route(route: Route, *, block_ads: bool, refused: list[tuple[str, str]]) -> None:
    """First gate, before the proxy: schemes a page may use, and the ad hosts when asked."""
    url = route.request.url
    scheme = url.split(":", 1)[0].lower()
    if scheme not in _SCHEMES:
        refused.append((url, f"scheme {scheme} is not allowed"))
        route.abort("blockedbyclient")
        return
    if block_ads and _is_ad(url):
        refused.append((url, "ad or tracking host (block_ads)"))
        route.abort("blockedbyclient")
        return
    route.continue_()


def _is_ad(url: str) -> bool:
    host = (urlsplit(url).hostname or "").lower()
    labels = host.split(".")
    return any(".".join(labels[i:]) in AD_HOSTS for i in range(len(labels) - 1))


def _check_response(response: Response | None, url: str, host: browser.BrowserHost) -> None:
    """A navigation the proxy refused answers with its own 403/502 (`X-Shot-Guard`); that is an error."""
    if response is None or response.headers.get("x-shot-guard") != "refused":
        return
    if response.status == 403:
        reasons = [r.reason for r in host.proxy.log.refusals] or ["a non-public address"]
        raise ToolError(
            f"url: {url} leads to {reasons[-1]}; only public addresses may be fetched", WebErrorCode.URL_NOT_ALLOWED
        )
    raise ToolError(f"url: {url} could not be reached ({response.status})", ErrorCode.UPSTREAM_UNAVAILABLE)


def _navigation_error(url: str, message: str, host: browser.BrowserHost) -> ToolError:
    if host.proxy.log.refusals:
        reason = host.proxy.log.refusals[-1].reason
        return ToolError(
            f"url: {url} leads to {reason}; only public addresses may be fetched", WebErrorCode.URL_NOT_ALLOWED
        )
    return ToolError(f"url: the page could not be loaded ({_first_line(message)})", ErrorCode.UPSTREAM_UNAVAILABLE)


def _screenshot(page: Page, arguments: CaptureInput, deadline: float) -> tuple[bytes, bool]:
    options: dict[str, Any] = {
        "type": arguments.format,
        "timeout": _ms_left(deadline),
        "full_page": arguments.full_page,
    }
    if arguments.format == "jpeg":
        options["quality"] = arguments.quality
    truncated = False
    if arguments.full_page:
        height = page.evaluate(
            "() => Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight || 0)"
        )
        if height > MAX_IMAGE_HEIGHT:
            width = page.viewport_size["width"] if page.viewport_size else arguments.width
            options["clip"] = {"x": 0, "y": 0, "width": width, "height": MAX_IMAGE_HEIGHT}
            truncated = True
    return page.screenshot(**options), truncated


def _thumbnail(image: Image.Image) -> dict[str, str]:
    small = image.convert("RGB")
    small.thumbnail(THUMBNAIL)
    buffer = io.BytesIO()
    small.save(buffer, "JPEG", quality=70)
    return {"type": "image", "data": base64.b64encode(buffer.getvalue()).decode("ascii"), "mimeType": "image/jpeg"}


def _ms_left(deadline: float) -> float:
    return max(1000.0, (deadline - time.monotonic()) * 1000)


def _first_line(message: str) -> str:
    return message.strip().splitlines()[0][:200] if message.strip() else "no detail"
